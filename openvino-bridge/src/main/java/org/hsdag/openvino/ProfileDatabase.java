package org.hsdag.openvino;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sqlite.SQLiteConfig;

/**
 * The per-machine profile database: every per-op kernel time the real backend profiled, keyed by what makes it valid
 * (a {@link ProfileContext} and an {@link OpSignature}), and each model's fitted HETERO costs (designed splits are a
 * whole-model measurement: they are kept per model, never shared). SQLite in WAL mode: several processes read and
 * write it at once (a writer waits for another's transaction, never corrupts it), and a process killed at any point
 * leaves the last committed state. A connection per call: nothing stays open between the few calls of a build.
 */
public final class ProfileDatabase {
  /** How long a writer waits for another process's transaction before giving up. */
  private static final int BUSY_TIMEOUT_MS = 60_000;

  private final Path file;

  private ProfileDatabase(Path file) {
    this.file = file.toAbsolutePath();
  }

  /** The database in {@code file} (made, with its folder, on first use). */
  public static ProfileDatabase at(Path file) {
    return new ProfileDatabase(file);
  }

  public Path file() {
    return file;
  }

  /** One op record: a signature's kernel time in a context. */
  public record OpRecord(String signature, String opType, double micros) {}

  /** The kernel times of those of {@code signatures} that {@code context} has, by signature. */
  public Map<String, Double> records(String context, Collection<String> signatures) throws IOException {
    Map<String, Double> out = new HashMap<>();
    if (!Files.exists(file)) {
      return out;
    }
    try (Connection c = open();
        PreparedStatement q = c.prepareStatement("SELECT micros FROM op_records WHERE context = ? AND signature = ?")) {
      for (String s : signatures) {
        q.setString(1, context);
        q.setString(2, s);
        try (ResultSet r = q.executeQuery()) {
          if (r.next()) {
            out.put(s, r.getDouble(1));
          }
        }
      }
      return out;
    } catch (SQLException e) {
      throw failed("read", e);
    }
  }

  /**
   * Saves (or replaces: a newer profile refreshes an older one) {@code records} in {@code context}, in one
   * transaction, with the context's description and the model they were profiled in.
   */
  public void put(String context, String description, List<OpRecord> records, String model) throws IOException {
    String now = Instant.now().toString();
    try (Connection c = open()) {
      c.setAutoCommit(false);
      try (PreparedStatement ctx = c.prepareStatement(
          "INSERT OR REPLACE INTO contexts(context, description) VALUES (?, ?)");
          PreparedStatement put = c.prepareStatement("INSERT OR REPLACE INTO op_records"
              + "(context, signature, op_type, micros, model, measured_at) VALUES (?, ?, ?, ?, ?, ?)")) {
        ctx.setString(1, context);
        ctx.setString(2, description);
        ctx.executeUpdate();
        for (OpRecord r : records) {
          put.setString(1, context);
          put.setString(2, r.signature());
          put.setString(3, r.opType());
          put.setDouble(4, r.micros());
          put.setString(5, model);
          put.setString(6, now);
          put.addBatch();
        }
        put.executeBatch();
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw failed("write", e);
    }
  }

  /** How many op records {@code context} holds (all contexts when null). */
  public int count(String context) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    try (Connection c = open();
        PreparedStatement q = c.prepareStatement(context == null ? "SELECT COUNT(*) FROM op_records"
            : "SELECT COUNT(*) FROM op_records WHERE context = ?")) {
      if (context != null) {
        q.setString(1, context);
      }
      try (ResultSet r = q.executeQuery()) {
        return r.next() ? r.getInt(1) : 0;
      }
    } catch (SQLException e) {
      throw failed("read", e);
    }
  }

  /** A model's saved cost-model measurements (kernels and fit) under {@code key}, if any. */
  public Optional<String> modelFit(String key) throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try (Connection c = open();
        PreparedStatement q = c.prepareStatement("SELECT measurements FROM model_fits WHERE model_key = ?")) {
      q.setString(1, key);
      try (ResultSet r = q.executeQuery()) {
        return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw failed("read", e);
    }
  }

  /** Saves (or replaces) a model's cost-model measurements under {@code key}. */
  public void saveModelFit(String key, String measurements) throws IOException {
    try (Connection c = open();
        PreparedStatement put = c.prepareStatement(
            "INSERT OR REPLACE INTO model_fits(model_key, measurements, saved_at) VALUES (?, ?, ?)")) {
      put.setString(1, key);
      put.setString(2, measurements);
      put.setString(3, Instant.now().toString());
      put.executeUpdate();
    } catch (SQLException e) {
      throw failed("write", e);
    }
  }

  /** The contexts held, with their descriptions (for a user who asks what the database knows). */
  public List<String> contexts() throws IOException {
    List<String> out = new ArrayList<>();
    if (!Files.exists(file)) {
      return out;
    }
    try (Connection c = open();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT context, description FROM contexts ORDER BY context")) {
      while (r.next()) {
        out.add(r.getString(1) + " " + r.getString(2));
      }
      return out;
    } catch (SQLException e) {
      throw failed("read", e);
    }
  }

  private Connection open() throws SQLException, IOException {
    Files.createDirectories(file.getParent());
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    // NORMAL in WAL mode: a committed transaction survives the process's death; only power loss may drop the last.
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout(BUSY_TIMEOUT_MS);
    // A write transaction takes the write lock at its start: two writers queue instead of one failing on upgrade.
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    Connection c = config.createConnection("jdbc:sqlite:" + file);
    try (Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE IF NOT EXISTS op_records(context TEXT NOT NULL, signature TEXT NOT NULL, "
          + "op_type TEXT NOT NULL, micros REAL NOT NULL, model TEXT, measured_at TEXT, "
          + "PRIMARY KEY(context, signature)) WITHOUT ROWID");
      s.executeUpdate("CREATE TABLE IF NOT EXISTS contexts(context TEXT PRIMARY KEY, description TEXT NOT NULL)");
      s.executeUpdate("CREATE TABLE IF NOT EXISTS model_fits(model_key TEXT PRIMARY KEY, measurements TEXT NOT NULL, "
          + "saved_at TEXT)");
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  private IOException failed(String what, SQLException e) {
    return new IOException("profile database " + file + ": cannot " + what + " (" + e.getMessage() + ")", e);
  }
}
