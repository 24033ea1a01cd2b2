/**
 * Seed derivation (SplitMix64) shared by every module, so one seed makes a run reproducible.
 * Depends on nothing; any package may depend on it.
 */
package org.hsdag.random;
