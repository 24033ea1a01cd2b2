package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A child process for {@link ProfileDatabaseProcessTest}: writes batches of op records to a profile database, each
 * in one transaction ({@code args}: database file, context, batches (0: until killed), records per batch).
 */
final class ProfileDatabaseWriter {
  private ProfileDatabaseWriter() {}

  public static void main(String[] args) throws Exception {
    ProfileDatabase db = ProfileDatabase.at(Path.of(args[0]));
    String context = args[1];
    int batches = Integer.parseInt(args[2]);
    int perBatch = Integer.parseInt(args[3]);
    for (int b = 0; batches == 0 || b < batches; b++) {
      List<ProfileDatabase.OpRecord> records = new ArrayList<>();
      for (int i = 0; i < perBatch; i++) {
        records.add(new ProfileDatabase.OpRecord(context + "-" + b + "-" + i, "Convolution", b * 1000.0 + i));
      }
      db.put(context, "writer " + context, records, "model-" + b);
      db.saveModelFit(context + "-" + b, "{\"batch\":" + b + "}");
    }
  }
}
