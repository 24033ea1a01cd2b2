/**
 * Small file helpers shared by every module: atomic writes, array (de)serialisation, the one-line
 * messages for I/O failures, and text a user can paste into a shell. Depends on nothing in hsdag;
 * any package may depend on it.
 */
package org.hsdag.io;
