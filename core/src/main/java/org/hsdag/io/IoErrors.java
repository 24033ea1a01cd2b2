package org.hsdag.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * One-line descriptions of I/O errors that always name the file. Channel reads, writes and
 * {@code force} throw a bare {@code IOException("Operation not permitted")}: whoever holds the
 * channel attaches its path with {@link #naming}.
 */
public final class IoErrors {
  private IoErrors() {}

  /** The reason without the path or exception class: "permission denied", "No space left on device", ... */
  public static String reason(IOException e) {
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "already exists";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "directory not empty";
    }
    if (e instanceof FileSystemException) {
      return "I/O error";
    }
    return e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
  }

  /**
   * {@code e} as an exception about {@code file}: returned as is when it already names
   * {@code file}, else a {@link FileSystemException} for {@code file} with {@code e}'s reason (a
   * temporary file's name is replaced by the file the user knows).
   */
  public static FileSystemException naming(Path file, IOException e) {
    if (e instanceof FileSystemException fs && file.toString().equals(fs.getFile()) && fs.getOtherFile() == null) {
      return fs;
    }
    FileSystemException named;
    if (e instanceof AccessDeniedException) {
      named = new AccessDeniedException(file.toString());
    } else if (e instanceof NoSuchFileException) {
      named = new NoSuchFileException(file.toString());
    } else {
      named = new FileSystemException(file.toString(), null, reason(e));
    }
    named.initCause(e);
    return named;
  }

  /** "path: reason" for any I/O error; FileSystemException's own message for one that names its files. */
  public static String describe(IOException e) {
    if (e instanceof FileSystemException fs && fs.getFile() != null) {
      String files = fs.getOtherFile() == null ? fs.getFile() : fs.getFile() + " -> " + fs.getOtherFile();
      return files + ": " + reason(e);
    }
    return reason(e);
  }
}
