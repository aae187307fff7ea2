package io.objectmeta.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Named SQL ({@code :name}, as the backend sends it through Jdbi) turned into JDBC's positional
 * form, once, before any timing: each occurrence becomes a {@code ?}, in order, exactly as Jdbi
 * rewrites it, so the server receives the same statement text.
 */
record NamedSql(String sql, List<String> names) {

  static NamedSql parse(String named) {
    StringBuilder out = new StringBuilder(named.length());
    List<String> names = new ArrayList<>();
    int i = 0;
    while (i < named.length()) {
      char ch = named.charAt(i);
      if (ch == '\'') { // string literal: copied as is
        int end = named.indexOf('\'', i + 1);
        end = end < 0 ? named.length() - 1 : end;
        out.append(named, i, end + 1);
        i = end + 1;
      } else if (ch == ':' && i + 1 < named.length() && named.charAt(i + 1) == ':') {
        out.append("::");
        i += 2;
      } else if (ch == ':' && i + 1 < named.length()
          && Character.isJavaIdentifierStart(named.charAt(i + 1))) {
        int j = i + 1;
        while (j < named.length() && Character.isJavaIdentifierPart(named.charAt(j))) {
          j++;
        }
        names.add(named.substring(i + 1, j));
        out.append('?');
        i = j;
      } else {
        out.append(ch);
        i++;
      }
    }
    return new NamedSql(out.toString(), List.copyOf(names));
  }

  /** The positional arguments for one execution, from values by name. */
  Object[] args(java.util.Map<String, Object> values) {
    Object[] a = new Object[names.size()];
    for (int i = 0; i < a.length; i++) {
      if (!values.containsKey(names.get(i))) {
        throw new IllegalArgumentException("no value for :" + names.get(i) + " in " + sql);
      }
      a[i] = values.get(names.get(i));
    }
    return a;
  }
}
