package org.hsdag.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * The cost model a search plans with, as a run records it: the backend's own ({@link Auto}), none
 * (a cold search, {@link None}) or a simulator profile ({@link Profile}, e.g. one fitted by {@code
 * hsdag calibrate}). Its JSON form is the word {@code auto}, {@code none} or the profile.
 */
public sealed interface ProxyChoice {
  /** The backend's own cost model, or a cold search when it has none. */
  Auto AUTO = new Auto();

  /** No cost model: the search starts cold. */
  None NONE = new None();

  /** The backend's own cost model. */
  record Auto() implements ProxyChoice {
    @Override
    public String text() {
      return "auto";
    }
  }

  /** No cost model. */
  record None() implements ProxyChoice {
    @Override
    public String text() {
      return "none";
    }
  }

  /**
   * A simulator profile's cost model.
   *
   * @param nameOrPath a built-in profile name or an absolute profile file path
   */
  record Profile(String nameOrPath) implements ProxyChoice {
    public Profile {
      Objects.requireNonNull(nameOrPath);
    }

    @Override
    public String text() {
      return nameOrPath;
    }
  }

  /** The recorded form: {@code auto}, {@code none} or the profile. */
  @JsonValue
  String text();

  /** Reads the recorded form; null (a run recorded before the proxy existed, which searched cold) is {@link #NONE}. */
  @JsonCreator
  static ProxyChoice parse(String text) {
    if (text == null || text.equals(NONE.text())) {
      return NONE;
    }
    return text.equals(AUTO.text()) ? AUTO : new Profile(text);
  }
}
