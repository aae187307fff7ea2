/** The MongoDB backend. */
package io.objectmeta.mongo;
