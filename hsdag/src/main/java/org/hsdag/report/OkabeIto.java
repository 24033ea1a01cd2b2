package org.hsdag.report;

import java.awt.Color;

/** The Okabe–Ito colours: told apart under the common colour-vision deficiencies; every plot draws from them. */
public final class OkabeIto {
  private OkabeIto() {}

  public static final Color BLUE = new Color(0x0072B2);
  public static final Color ORANGE = new Color(0xE69F00);
  public static final Color BLUISH_GREEN = new Color(0x009E73);
  public static final Color VERMILLION = new Color(0xD55E00);
  public static final Color REDDISH_PURPLE = new Color(0xCC79A7);
  public static final Color SKY_BLUE = new Color(0x56B4E9);
  public static final Color YELLOW = new Color(0xF0E442);
}
