package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** OpenVINO 2026.4.1's read_model messages (checked with the pinned wheel) get the hint of their own cause. */
class ReadFailureHintTest {
  @Test
  void anUnknownOpTypeIsNotBlamedOnTheWeights() {
    String hint = ReadFailureHint.of("cannot read m.xml: Exception from src/core/xml_util/src/xml_deserialize_util.cpp:"
        + "1286: Opset opset1 doesn't contain the operation with type: FooBar");
    assertTrue(hint.contains("op type this OpenVINO does not know"), hint);
    assertFalse(hint.contains(".bin"), hint);
  }

  @Test
  void anUnknownOpsetAndAnUnreadableVersionNameTheirCause() {
    assertTrue(ReadFailureHint.of("Cannot create Relu layer act id:2 from unsupported opset: opset99")
        .contains("an opset this OpenVINO does not know"));
    assertTrue(ReadFailureHint.of("Unable to read the model: \"v.xml\" Please check that model format")
        .contains("IR version"));
  }

  @Test
  void aWeightsFailureStillPointsAtTheBin() {
    assertTrue(ReadFailureHint.of("w.bin: weights file not found").contains("a .bin that is not this model's own?"));
  }
}
