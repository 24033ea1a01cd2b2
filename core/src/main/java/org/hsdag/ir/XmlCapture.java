package org.hsdag.ir;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** Serialises an XML subtree to a canonical string (no whitespace-only text), for verbatim round trips. */
final class XmlCapture {
  private XmlCapture() {}

  /** Captures the element the reader is on, leaving the reader on its end tag. */
  static String element(XMLStreamReader r) throws XMLStreamException {
    StringBuilder sb = new StringBuilder();
    int depth = 0;
    boolean openTag = false;
    do {
      int ev = depth == 0 ? r.getEventType() : r.next();
      switch (ev) {
        case XMLStreamConstants.START_ELEMENT -> {
          if (openTag) {
            sb.append('>');
          }
          sb.append('<').append(qualified(r.getPrefix(), r.getLocalName()));
          for (int i = 0; i < r.getAttributeCount(); i++) {
            sb.append(' ')
                .append(qualified(r.getAttributePrefix(i), r.getAttributeLocalName(i)))
                .append("=\"")
                .append(escape(r.getAttributeValue(i)))
                .append('"');
          }
          openTag = true;
          depth++;
        }
        case XMLStreamConstants.END_ELEMENT -> {
          if (openTag) {
            sb.append("/>");
            openTag = false;
          } else {
            sb.append("</").append(qualified(r.getPrefix(), r.getLocalName())).append('>');
          }
          depth--;
        }
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
          String text = r.getText();
          if (!text.isBlank()) {
            if (openTag) {
              sb.append('>');
              openTag = false;
            }
            sb.append(escape(text.trim()));
          }
        }
        default -> {
          // comments and processing instructions are not part of the model
        }
      }
    } while (depth > 0);
    return sb.toString();
  }

  private static String qualified(String prefix, String local) {
    return prefix == null || prefix.isEmpty() ? local : prefix + ":" + local;
  }

  static String escape(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String rep = switch (c) {
        case '&' -> "&amp;";
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '"' -> "&quot;";
        case '\n' -> "&#10;";
        case '\r' -> "&#13;";
        case '\t' -> "&#9;";
        default -> null;
      };
      if (rep != null || (c < 0x20)) {
        if (sb == null) {
          sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        }
        sb.append(rep != null ? rep : "&#" + (int) c + ";");
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? s : sb.toString();
  }
}
