package io.objectmeta.conformance.selftest;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MetadataStoreConformance;

/**
 * The suite over whatever fixture {@link SuiteSelfTest} sets; run through the JUnit launcher only
 * (its name keeps surefire from running it directly).
 */
public class SelfTestSuite extends MetadataStoreConformance {
  static volatile ConformanceFixture current;

  @Override
  protected ConformanceFixture fixture() {
    return current;
  }
}
