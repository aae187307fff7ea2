package io.objectmeta.api.listing;

import io.objectmeta.api.error.InvalidArgumentException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * ListObjectsV2 continuation tokens: the page's last key or common prefix, as unpadded base64url
 * of its UTF-8 bytes behind a format tag. Opaque to clients, stateless for the store, and
 * independent of the backend, so a token from one store instance works on another.
 */
public final class ContinuationToken {
  private ContinuationToken() {}

  private static final String TAG = "1";

  public static String encode(String resumeAfter) {
    return TAG + Base64.getUrlEncoder().withoutPadding()
        .encodeToString(resumeAfter.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The key to resume after.
   *
   * @throws InvalidArgumentException the token is not one this library issued
   */
  public static String decode(String token) {
    if (token == null || !token.startsWith(TAG) || token.length() < 2) {
      throw new InvalidArgumentException("continuationToken", "not a token this store issued");
    }
    try {
      byte[] bytes = Base64.getUrlDecoder().decode(token.substring(1));
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (IllegalArgumentException | CharacterCodingException e) {
      throw new InvalidArgumentException("continuationToken", "not a token this store issued");
    }
  }
}
