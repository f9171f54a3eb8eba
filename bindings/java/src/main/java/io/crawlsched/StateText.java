package io.crawlsched;

import java.util.Base64;

/**
 * The text form of an estimator state: unpadded base64url (RFC 4648 §5),
 * the same text in every binding.
 */
final class StateText {
    private StateText() {}

    static String encode(byte[] state) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(state);
    }

    /** Strict: only the canonical text of some bytes (no padding, no stray bits). */
    static byte[] decode(String text) {
        Lib.nonNull(text, "text");
        byte[] b;
        try {
            b = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException ex) {
            throw new CrawlschedException(Status.INVALID_ARGUMENT, "text: not unpadded base64url: " + ex.getMessage());
        }
        if (!encode(b).equals(text)) {
            throw new CrawlschedException(Status.INVALID_ARGUMENT, "text: not unpadded canonical base64url");
        }
        return b;
    }
}
