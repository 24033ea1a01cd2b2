package org.hsdag.openvino;

import org.hsdag.backend.BackendUnavailableException;

/** The native OpenVINO backend cannot be used here; the message says why and how to fix it. */
public class OpenVinoUnavailableException extends BackendUnavailableException {
  private static final long serialVersionUID = 1L;

  private final OpenVinoAvailability availability;

  public OpenVinoUnavailableException(OpenVinoAvailability availability) {
    super(availability.oneLine());
    this.availability = availability;
  }

  public OpenVinoAvailability availability() {
    return availability;
  }
}
