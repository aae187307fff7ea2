package io.objectmeta.bench;

import java.util.Arrays;

/**
 * One row of the report: a workload on a target, the median and spread of its measured runs,
 * and the baseline's median with the ratio backend / baseline when there is one.
 */
public record Result(String target, Workload workload, double median, double min, double max,
    double baselineMedian, double baselineMin, double baselineMax, String note) {

  public double ratio() {
    return Double.isNaN(baselineMedian) || baselineMedian <= 0 || workload == Workload.WALK_BIG
        ? Double.NaN
        : median / baselineMedian;
  }

  static Result of(String target, Workload w, double[] values, double[] baseline, String note) {
    double[] b = baseline == null ? new double[0] : baseline;
    return new Result(target, w, median(values), min(values), max(values), median(b), min(b),
        max(b), note);
  }

  static double median(double[] v) {
    if (v.length == 0) {
      return Double.NaN;
    }
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static double min(double[] v) {
    return Arrays.stream(v).min().orElse(Double.NaN);
  }

  static double max(double[] v) {
    return Arrays.stream(v).max().orElse(Double.NaN);
  }
}
