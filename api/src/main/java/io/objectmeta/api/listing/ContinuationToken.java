package io.objectmeta.api.listing;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.validation.Validation;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * ListObjectsV2 continuation tokens of one store: opaque to clients, stateless for the store,
 * bound to the listing that issued them and protected against tampering.
 *
 * <p>A token is {@code "2"} followed by unpadded base64url of {@code mac || resumeAfter}, where
 * {@code resumeAfter} is the UTF-8 of the page's last key or common prefix and {@code mac} the
 * first 16 bytes of HMAC-SHA256 over the listing's {@link Scope} (the bucket incarnation's id,
 * prefix, delimiter and as-of time) and {@code resumeAfter}. So a token is refused when it comes
 * from another bucket, from an earlier incarnation of the same bucket (deleted and created again),
 * from a listing with another prefix, delimiter or as-of time, or when a byte of it was changed;
 * and it cannot carry a key longer than S3's 1024 bytes, however it was made.
 *
 * <p>The MAC key is derived from the store's UUID ({@code MetadataStore.getUUID()}), which every
 * process on one deployment shares, so a token issued by one process is accepted by another; it
 * is tamper-evident to S3 clients, which never see that UUID, not a secret from whoever can call
 * the store itself. A migrated copy has another UUID: tokens do not survive a migration, as they
 * do not survive a bucket's re-creation (the client lists again from its last key).
 */
public final class ContinuationToken {
  private static final String TAG = "2";
  private static final int MAC_BYTES = 16;
  private static final String FIELD = "continuationToken";
  /** The longest token this class issues: the tag and base64 of the MAC and a 1024-byte key. */
  public static final int MAX_LENGTH =
      TAG.length() + (4 * (MAC_BYTES + Validation.MAX_KEY_BYTES) + 2) / 3;

  private final SecretKeySpec key;

  private ContinuationToken(byte[] key) {
    this.key = new SecretKeySpec(key, "HmacSHA256");
  }

  /** The tokens of the store whose UUID is {@code storeId}. */
  public static ContinuationToken forStore(UUID storeId) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update("objectmeta continuation token v2\0".getBytes(StandardCharsets.UTF_8));
      sha.update(storeId.toString().getBytes(StandardCharsets.UTF_8));
      return new ContinuationToken(sha.digest());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /**
   * What a token is bound to: the listing that issued it.
   *
   * @param bucketId the bucket incarnation's id
   */
  public record Scope(String bucketId, String prefix, String delimiter, Instant asOf) {
    public static Scope of(String bucketId, ListObjectsV2Request r) {
      return new Scope(bucketId, r.prefix(), r.delimiter(), r.asOf());
    }
  }

  /** A token to resume the listing of {@code scope} after {@code resumeAfter}. */
  public String encode(Scope scope, String resumeAfter) {
    byte[] after = resumeAfter.getBytes(StandardCharsets.UTF_8);
    byte[] token = Arrays.copyOf(mac(scope, after), MAC_BYTES + after.length);
    System.arraycopy(after, 0, token, MAC_BYTES, after.length);
    return TAG + Base64.getUrlEncoder().withoutPadding().encodeToString(token);
  }

  /**
   * The key to resume after.
   *
   * @throws InvalidArgumentException the token is not one this store issued for this listing
   */
  public String decode(Scope scope, String token) {
    if (token == null || token.length() > MAX_LENGTH || !token.startsWith(TAG)) {
      throw refused();
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(token.substring(TAG.length()));
    } catch (IllegalArgumentException e) {
      throw refused();
    }
    if (bytes.length <= MAC_BYTES || bytes.length > MAC_BYTES + Validation.MAX_KEY_BYTES
        // one spelling per token: no padding, no stray bits in the last character
        || !token.substring(TAG.length())
            .equals(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes))) {
      throw refused();
    }
    byte[] after = Arrays.copyOfRange(bytes, MAC_BYTES, bytes.length);
    byte[] expected = Arrays.copyOf(mac(scope, after), MAC_BYTES);
    if (!MessageDigest.isEqual(expected, Arrays.copyOf(bytes, MAC_BYTES))) {
      throw refused();
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(after)).toString();
    } catch (CharacterCodingException e) {
      throw refused(); // only a token made with this key could get here: not from this class
    }
  }

  private static InvalidArgumentException refused() {
    return new InvalidArgumentException(FIELD, "not a token this store issued for this listing"
        + " (a token is valid only for the bucket, prefix, delimiter and asOf of the request that"
        + " returned it, and not after the bucket was deleted)");
  }

  private byte[] mac(Scope scope, byte[] after) {
    ByteArrayOutputStream in = new ByteArrayOutputStream(64 + after.length);
    field(in, scope.bucketId());
    field(in, scope.prefix());
    field(in, scope.delimiter());
    field(in, scope.asOf() == null ? null : scope.asOf().toString());
    in.writeBytes(after);
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(in.toByteArray());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  /** Length-prefixed, so that no two scopes give the same input; null differs from "". */
  private static void field(ByteArrayOutputStream in, String value) {
    if (value == null) {
      in.writeBytes(new byte[] {-1, -1, -1, -1});
      return;
    }
    byte[] b = value.getBytes(StandardCharsets.UTF_8);
    in.writeBytes(ByteBuffer.allocate(4).putInt(b.length).array());
    in.writeBytes(b);
  }
}
