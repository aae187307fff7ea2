/** The Cloud Bigtable backend ({@code bigtable://PROJECT/INSTANCE}). */
package io.objectmeta.bigtable;
