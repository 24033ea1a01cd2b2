package org.hsdag.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Words and strings hsdag prints for pasting survive the shell and the language they are pasted into. */
class PasteableTest {
  @Test
  void plainWordsStayAsTheyAreAndOthersAreSingleQuoted() {
    assertEquals("runs/x-1/best.json", Pasteable.shell("runs/x-1/best.json"));
    assertEquals("--budget=5", Pasteable.shell("--budget=5"));
    assertEquals("'my runs/best.json'", Pasteable.shell("my runs/best.json"));
    assertEquals("'it'\\''s \"here\"'", Pasteable.shell("it's \"here\""));
    assertEquals("'$HOME'", Pasteable.shell("$HOME"));
    assertEquals("''", Pasteable.shell(""));
    assertEquals("./hsdag.sh apply 'a b.xml' c.json", Pasteable.shellLine("./hsdag.sh", "apply", "a b.xml", "c.json"));
  }

  @Test
  void stringLiteralsEscapeQuotesBackslashesAndControlCharacters() {
    assertEquals("\"a \\\"b\\\" c\\\\d\\ne\"", Pasteable.python("a \"b\" c\\d\ne"));
    assertEquals("\"a \\\"b\\\" c\\\\d\\ne\"", Pasteable.java("a \"b\" c\\d\ne"));
    assertEquals("\"caf\u00e9\"", Pasteable.python("caf\u00e9"));
  }
}
