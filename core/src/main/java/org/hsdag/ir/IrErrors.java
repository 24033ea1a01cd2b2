package org.hsdag.ir;

import java.io.IOException;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamException;
import org.hsdag.io.IoErrors;

/** The one-line wording of errors met while reading an IR file. */
final class IrErrors {
  private IrErrors() {}

  static IrException xmlError(String source, XMLStreamException e, Location at) {
    Throwable nested = e.getNestedException() != null ? e.getNestedException() : e.getCause();
    if (nested instanceof IOException io) {
      return readError(source, io, e);
    }
    String line = at == null || at.getLineNumber() < 0 ? "" : ":" + at.getLineNumber();
    return new IrException(source + line + ": malformed XML (" + oneLine(stripLocation(e.getMessage())) + ")", e);
  }

  static IrException readError(String source, IOException e, Exception cause) {
    if (e instanceof XmlTextReader.BadEncodingException bad) {
      return new IrException(source + ":" + bad.line() + ": " + bad.getMessage(), cause);
    }
    return new IrException(source + ": cannot read (" + IoErrors.reason(e) + ")", cause);
  }

  static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("\\s+", " ").trim();
  }

  private static String stripLocation(String s) {
    if (s == null) {
      return "";
    }
    int i = s.indexOf("Message:");
    return i >= 0 ? s.substring(i + "Message:".length()) : s;
  }
}
