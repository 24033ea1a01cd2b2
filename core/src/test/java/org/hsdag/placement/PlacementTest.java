package org.hsdag.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlacementTest {
  private final DeviceSet devices = DeviceSet.parse("CPU, gpu.1");

  private OpGraph resnet() {
    return new IrReader().read(Samples.irSample("resnet-50.xml"));
  }

  @Test
  void parsesDeviceListsCaseInsensitively() {
    assertEquals(java.util.List.of("CPU", "GPU.1"), devices.names());
    assertEquals("HETERO:CPU,GPU.1", devices.heteroString());
    assertThrows(InvalidPlacementException.class, () -> DeviceSet.parse("CPU,CPU"));
    assertThrows(InvalidPlacementException.class, () -> DeviceSet.parse(" , "));
  }

  @Test
  void jsonRoundTripKeepsEveryNode(@TempDir Path dir) throws IOException {
    OpGraph g = resnet();
    int[] a = new int[g.nodeCount()];
    for (int i = 0; i < a.length; i++) {
      a[i] = i % 3 == 0 ? 1 : 0;
    }
    Placement p = new Placement(devices, a);
    Path file = dir.resolve("best.json");
    PlacementFiles.write(file, g, p);
    assertEquals(p, PlacementFiles.read(file, g, devices));
    Map<String, String> raw = PlacementFiles.readMap(file);
    assertEquals(g.nodeCount(), raw.size());
    assertEquals("GPU.1", raw.get(g.node(0).name()));
  }

  @Test
  void aMillionCharacterOpNameRoundTrips(@TempDir Path dir) throws IOException {
    // Jackson's default read limits (50,000 characters per name) made such a best.json unreadable to apply.
    String longName = "n".repeat(1_000_000);
    org.hsdag.testkit.TinyGraphs.Builder b = org.hsdag.testkit.TinyGraphs.builder("long");
    int x = b.parameter("x", 1, 4);
    b.result("out", b.op(longName, "ReLU", new long[] {1, 4}, x));
    OpGraph g = b.build();
    int[] a = new int[g.nodeCount()];
    a[g.indexOf(longName)] = 1;
    Placement p = new Placement(devices, a);
    Path file = dir.resolve("best.json");
    PlacementFiles.write(file, g, p);
    assertEquals(p, PlacementFiles.read(file, g, devices));
  }

  @Test
  void rejectsUnknownNodesMissingNodesAndUnknownDevices() {
    OpGraph g = resnet();
    Map<String, String> m = new LinkedHashMap<>(Placement.allOn(devices, g.nodeCount(), "CPU").toNameMap(g));
    Map<String, String> unknownDevice = new LinkedHashMap<>(m);
    unknownDevice.put(g.node(5).name(), "GPU.7");
    InvalidPlacementException e1 = assertThrows(InvalidPlacementException.class,
        () -> Placement.fromNameMap(g, devices, unknownDevice));
    assertTrue(e1.getMessage().contains("unknown device 'GPU.7'"), e1.getMessage());

    Map<String, String> unknownNode = new LinkedHashMap<>(m);
    unknownNode.put("no/such/node", "CPU");
    InvalidPlacementException e2 = assertThrows(InvalidPlacementException.class,
        () -> Placement.fromNameMap(g, devices, unknownNode));
    assertTrue(e2.getMessage().contains("'no/such/node', which is not in the model"), e2.getMessage());

    Map<String, String> missing = new LinkedHashMap<>(m);
    missing.remove(g.node(7).name());
    InvalidPlacementException e3 = assertThrows(InvalidPlacementException.class,
        () -> Placement.fromNameMap(g, devices, missing));
    assertTrue(e3.getMessage().contains("misses 1 of 396 nodes"), e3.getMessage());
  }

  @Test
  void malformedJsonIsOneLine(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.json");
    Files.writeString(f, "{\"a\": [1,2]}");
    InvalidPlacementException e = assertThrows(InvalidPlacementException.class, () -> PlacementFiles.readMap(f));
    assertTrue(e.getMessage().startsWith(f + ": the device of node \"a\" is a JSON list; expected a device name"),
        e.getMessage());
    assertTrue(!e.getMessage().contains("\n"));
  }

  @Test
  void hashSeparatesPlacementsAndIsStable() {
    Placement a = new Placement(devices, new int[] {0, 1, 0});
    Placement b = new Placement(devices, new int[] {0, 0, 1});
    assertNotEquals(a.hash64(), b.hash64());
    assertEquals(a.hash64(), new Placement(DeviceSet.of("CPU", "GPU.1"), new int[] {0, 1, 0}).hash64());
    assertEquals(16, a.hashHex().length());
    assertThrows(InvalidPlacementException.class, () -> new Placement(devices, new int[] {2}));
  }

  @Test
  void aPlacementFileSaysWhatShapeItExpects(@TempDir Path dir) throws IOException {
    String shape = "a JSON object {\"<node friendly name>\": \"<device>\", ...}";
    Object[][] cases = {
        {"[\"CPU\", \"GPU.1\"]", ": holds a JSON list; expected " + shape},
        {"{\"conv\": 1}",
            ": the device of node \"conv\" is a number (1); expected a device name such as \"GPU.1\" (" + shape + ")"},
        {"{\"conv\": null}",
            ": the device of node \"conv\" is null; expected a device name such as \"GPU.1\" (" + shape + ")"},
        {"{\"conv\": \" \"}",
            ": the device of node \"conv\" is empty; expected a device name such as \"GPU.1\" (" + shape + ")"},
        {"", ": is empty; expected " + shape},
        {"{\"conv\": \"CPU\",\n  \"relu\": GPU}", ":2: not valid JSON; expected " + shape},
        {"<?xml version=\"1.0\"?><net/>", ": is XML (an OpenVINO IR model?), not a placement; expected " + shape},
    };
    for (Object[] c : cases) {
      Path f = dir.resolve("p.json");
      Files.writeString(f, (String) c[0]);
      InvalidPlacementException e = assertThrows(InvalidPlacementException.class, () -> PlacementFiles.readMap(f));
      assertEquals(f + (String) c[1], e.getMessage());
    }
    InvalidPlacementException e = assertThrows(InvalidPlacementException.class, () -> PlacementFiles.readMap(dir));
    assertEquals(dir + ": is a directory, not a placement file", e.getMessage());
  }

  @Test
  void devicesAreSpelledOneWayInFilesAndInDeviceLists(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("p.json");
    Files.writeString(f, "{\"a\": \"gpu.1\", \"b\": \" cpu \", \"c\": \"GPU.0\"}");
    assertEquals(Map.of("a", "GPU.1", "b", "CPU", "c", "GPU.0"), PlacementFiles.readMap(f));
    DeviceSet ds = DeviceSet.parse(" cpu, gpu.1 ");
    assertEquals(List.of("CPU", "GPU.1"), ds.names());
    assertEquals(ds, new DeviceSet(List.of("Cpu", "gPu.1")));
    assertEquals("GPU.1", DeviceSet.canonical(" gpu.1"));
    assertThrows(InvalidPlacementException.class, () -> new DeviceSet(List.of("GPU.1", "gpu.1")), "one device twice");
  }
}
