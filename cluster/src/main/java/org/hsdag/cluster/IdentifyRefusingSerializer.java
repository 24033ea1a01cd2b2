package org.hsdag.cluster;

import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.remote.serialization.MiscMessageSerializer;

/**
 * Pekko's serializer of its small built-in messages, except that an {@code Identify} from another member is
 * refused before it is built: untrusted mode drops actor selections and system messages but still lets a message
 * sent straight to a resolved path ({@code /user}, {@code /system}, the cluster daemon) through, and every actor
 * answers {@code Identify} with its reference and UID. Nothing in a fleet identifies actors remotely (members find
 * each other through the receptionist), so no member needs it. Incoming messages are read by the serializer whose
 * id they carry, so this takes the place of Pekko's own (id 16) rather than adding a binding.
 */
public final class IdentifyRefusingSerializer extends MiscMessageSerializer {
  /** The manifest {@code MiscMessageSerializer} gives {@code Identify} (pekko-remote 1.7.0). */
  static final String IDENTIFY = "A";

  /** Pekko instantiates serializers with the actor system. */
  public IdentifyRefusingSerializer(ExtendedActorSystem system) {
    super(system);
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    if (IDENTIFY.equals(manifest)) {
      // Pekko's inbound deserializer logs a failure and drops the message (Artery Codecs.scala, Deserializer).
      throw new IllegalArgumentException("refused an Identify from another member");
    }
    return super.fromBinary(bytes, manifest);
  }
}
