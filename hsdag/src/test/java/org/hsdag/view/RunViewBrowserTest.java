package org.hsdag.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.hsdag.tune.LogRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The live view in a real headless browser (Debian's chromium through its chromedriver, provisioned by the build):
 * the page loads without console errors, follows measurements as they are appended to the run folder, and ends on
 * the run's final pick; at a desktop and at a phone width nothing overflows sideways.
 */
class RunViewBrowserTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path work;
  private static WebDriver driver;
  private static Path finished;

  @BeforeAll
  static void browserAndRun() throws IOException {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("CI needs " + CHROMIUM + " and " + CHROMEDRIVER
          + " (the build's hsdag/browser/provision.sh installs them)");
    }
    Assumptions.assumeTrue(present, "no chromium/chromedriver here (hsdag/browser/provision.sh installs them)");
    finished = ViewRuns.finishedRun(work);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--no-first-run", "--window-size=1366,900", "--hide-scrollbars");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
  }

  @AfterAll
  static void quit() {
    if (driver != null) {
      driver.quit();
    }
  }

  @Test
  void followsTheRunAsMeasurementsLandAndEndsOnTheFinalPick() throws Exception {
    ViewRuns.Replay replay = new ViewRuns.Replay(finished, work.resolve("live"));
    replay.untilMeasurements(LogRecord.PHASE_SEARCH, 3);
    try (RunView view = RunView.start(work.resolve("live"), RunView.Binding.loopback(), false)) {
      driver.manage().window().setSize(new Dimension(1366, 900));
      driver.get(view.uri().toString());
      waitFor("data-measurements", "3");
      assertEquals("search", driver.findElement(By.tagName("body")).getAttribute("data-phase"));
      assertTrue(driver.findElements(By.cssSelector("#chart-best circle")).size() >= 3, "a dot per measurement");
      assertEquals(2, driver.findElements(By.cssSelector("#placement .dev")).size(), "a row per device");

      replay.untilMeasurements(LogRecord.PHASE_SEARCH, 4);
      waitFor("data-measurements", "4");
      screenshots("running");

      replay.finish();
      JsonNode result = JSON.readTree(finished.resolve("result.json").toFile());
      until(d -> d.findElement(By.id("final-decision")).isDisplayed(), "the final pick");
      assertEquals("completed", driver.findElement(By.tagName("body")).getAttribute("data-phase"));
      assertEquals(result.path("decision").asText(), driver.findElement(By.id("final-decision")).getText());
      assertTrue(driver.findElement(By.id("final-best")).getText().contains(result.path("best").path("label").asText()),
          driver.findElement(By.id("final-best")).getText());
      assertTrue(driver.findElement(By.id("final-report")).isDisplayed(), "links the full report");
      screenshots("finished");
      List<LogEntry> errors = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
          .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue()).toList();
      assertEquals(List.of(), errors.stream().map(LogEntry::getMessage).toList(), "console errors");
    }
  }

  private static void waitFor(String attribute, String value) throws InterruptedException {
    until(d -> value.equals(d.findElement(By.id("progress-text")).getAttribute(attribute)),
        attribute + "=" + value);
  }

  /** Polls the page until {@code ready} holds; fails with {@code what} after {@link #WAIT}. */
  private static void until(java.util.function.Predicate<WebDriver> ready, String what) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!ready.test(driver)) {
      if (System.nanoTime() > end) {
        throw new AssertionError("the page never showed " + what + " within " + WAIT.toSeconds() + " s");
      }
      Thread.sleep(100);
    }
  }

  /** Both widths: nothing wider than the window; the pictures go where HSDAG_VIEW_SCREENSHOTS says, else target/. */
  private static void screenshots(String name) throws IOException {
    String where = System.getenv("HSDAG_VIEW_SCREENSHOTS");
    Path dir = Path.of(where != null ? where : "target/view-screenshots");
    Files.createDirectories(dir);
    for (int width : new int[] {1366, 390}) {
      driver.manage().window().setSize(new Dimension(width, width > 1000 ? 900 : 844));
      JavascriptExecutor js = (JavascriptExecutor) driver;
      long scroll = ((Number) js.executeScript("return document.documentElement.scrollWidth")).longValue();
      long inner = ((Number) js.executeScript("return window.innerWidth")).longValue();
      assertTrue(scroll <= inner, name + " at " + width + " px: the page is " + scroll + " px wide");
      // The whole page, not the window: the screenshot is as tall as the content.
      long height = ((Number) js.executeScript("return document.documentElement.scrollHeight")).longValue();
      driver.manage().window().setSize(new Dimension(width, (int) Math.min(height + 140, 4000)));
      File shot = ((org.openqa.selenium.TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
      Files.copy(shot.toPath(), dir.resolve("view-" + name + "-" + width + ".png"),
          StandardCopyOption.REPLACE_EXISTING);
    }
    driver.manage().window().setSize(new Dimension(1366, 900));
  }
}
