package org.hsdag.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.NotSerializableException;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Pekko's serializer for {@link WireMessage}s: JSON through Jackson, with an explicit allowlist —
 * a manifest outside {@link WireMessage#ALLOWED} is refused before any object is built. Bound to
 * {@code WireMessage} in {@link ClusterSettings}, where Java serialization is switched off.
 */
public final class JsonSerializer extends SerializerWithStringManifest {
  /** Pekko reserves 0-40 for itself. */
  static final int IDENTIFIER = 30_330;

  private final ObjectMapper json = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private final Map<String, Class<? extends WireMessage>> allowed = new HashMap<>();

  /** Pekko instantiates serializers with the actor system. */
  public JsonSerializer(ExtendedActorSystem system) {
    this();
  }

  JsonSerializer() {
    for (Class<? extends WireMessage> c : WireMessage.ALLOWED) {
      allowed.put(c.getSimpleName(), c);
    }
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  @Override
  public String manifest(Object o) {
    return o.getClass().getSimpleName();
  }

  @Override
  public byte[] toBinary(Object o) {
    if (!allowed.containsKey(manifest(o)) || allowed.get(manifest(o)) != o.getClass()) {
      throw new IllegalArgumentException("not a wire message: " + o.getClass().getName());
    }
    try {
      return json.writeValueAsBytes(o);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + o.getClass().getSimpleName() + " as JSON", e);
    }
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
    Class<? extends WireMessage> type = allowed.get(manifest);
    if (type == null) {
      throw new NotSerializableException("refused a message of type '" + manifest + "' (not on the allowlist)");
    }
    try {
      return json.readValue(bytes, type);
    } catch (IOException e) {
      NotSerializableException refused = new NotSerializableException("unreadable " + manifest + ": " + e.getMessage());
      refused.initCause(e);
      throw refused;
    }
  }
}
