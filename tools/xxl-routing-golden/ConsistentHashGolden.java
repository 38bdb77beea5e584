import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Golden vectors for tickring's CONSISTENT_HASH route (shared/domain/routing/consistent-hash.ts).
 *
 * <p>hash() and hashJob() restate XXL-JOB's ExecutorRouteConsistentHash (xxl-job-admin, master /
 * 3.x) with the same JDK primitives, so the vectors carry Java's own semantics: MessageDigest MD5 over
 * the UTF-8 bytes, the first 4 digest bytes read little-endian into a long and masked to unsigned 32
 * bits, a TreeMap&lt;Long, String&gt; ring of VIRTUAL_NODE_NUM nodes per address filled in list order
 * (put on an equal key keeps the key and replaces the value, so the later address wins), and
 * ceilingEntry(jobHash) falling back to firstEntry().
 *
 * <p>Usage: java ConsistentHashGolden &lt;output.json&gt;  (see generate.sh).
 */
public final class ConsistentHashGolden {

  static final int VIRTUAL_NODE_NUM = 100;

  private ConsistentHashGolden() {}

  /** MD5, first 4 bytes little-endian, as an unsigned 32-bit value in a long. */
  static long hash(String key) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 not supported", e);
    }
    md5.reset();
    md5.update(key.getBytes(StandardCharsets.UTF_8));
    byte[] digest = md5.digest();
    long hashCode =
        ((long) (digest[3] & 0xFF) << 24)
            | ((long) (digest[2] & 0xFF) << 16)
            | ((long) (digest[1] & 0xFF) << 8)
            | (digest[0] & 0xFF);
    return hashCode & 0xffffffffL;
  }

  static TreeMap<Long, String> ring(List<String> addressList) {
    TreeMap<Long, String> addressRing = new TreeMap<>();
    for (String address : addressList) {
      for (int i = 0; i < VIRTUAL_NODE_NUM; i++) {
        addressRing.put(hash("SHARD-" + address + "-NODE-" + i), address);
      }
    }
    return addressRing;
  }

  static String hashJob(int jobId, List<String> addressList) {
    TreeMap<Long, String> addressRing = ring(addressList);
    long jobHash = hash(String.valueOf(jobId));
    Map.Entry<Long, String> ceilingEntry = addressRing.ceilingEntry(jobHash);
    if (ceilingEntry != null) {
      return ceilingEntry.getValue();
    }
    return addressRing.firstEntry().getValue();
  }

  // ---------------------------------------------------------------- address lists

  static List<String> ips(int count, boolean trailingSlash) {
    List<String> list = new ArrayList<>();
    for (int n = 1; n <= count; n++) {
      list.add("http://10.0.0." + n + ":9999" + (trailingSlash ? "/" : ""));
    }
    return list;
  }

  static List<String> hosts(int count, boolean trailingSlash) {
    List<String> list = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      list.add("http://host-" + (char) ('a' + n) + ":9999" + (trailingSlash ? "/" : ""));
    }
    return list;
  }

  static final List<String> MIXED =
      List.of(
          "http://192.168.1.10:9999/",
          "http://192.168.1.11:9998",
          "https://executor.example.com/xxl-job/",
          "http://\u6267\u884c\u5668-1:9999/",
          "http://[::1]:9999/",
          "http://host-a:9999/",
          "http://10.0.0.1:9999");

  // ---------------------------------------------------------------- cases

  record Case(int jobId, List<String> addresses, String expected, long jobHash, String note) {}

  static Case makeCase(int jobId, List<String> addresses, String note) {
    TreeMap<Long, String> addressRing = ring(addresses);
    long jobHash = hash(String.valueOf(jobId));
    boolean wraps = addressRing.ceilingKey(jobHash) == null;
    String fullNote = note;
    if (wraps && note == null) {
      fullNote = "wraps to the first ring entry";
    }
    return new Case(jobId, addresses, hashJob(jobId, addresses), jobHash, fullNote);
  }

  /** Two addresses of the form http://10.1.x.y:9999/ with a virtual node on the same ring key. */
  static String[] findCollision() {
    Map<Long, String> seen = new HashMap<>();
    for (int i = 0; i < 65536; i++) {
      String address = "http://10.1." + (i >> 8) + "." + (i & 255) + ":9999/";
      for (int n = 0; n < VIRTUAL_NODE_NUM; n++) {
        long h = hash("SHARD-" + address + "-NODE-" + n);
        String previous = seen.get(h);
        if (previous != null && !previous.equals(address)) {
          return new String[] {previous, address, Long.toString(h)};
        }
        seen.put(h, address);
      }
    }
    throw new IllegalStateException("no collision found");
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: java ConsistentHashGolden <output.json>");
      System.exit(2);
    }
    List<Case> cases = new ArrayList<>();

    // job ids 1..100, three address lists each, 1..10 addresses, with and without trailing slash
    for (int jobId = 1; jobId <= 100; jobId++) {
      cases.add(makeCase(jobId, ips(((jobId - 1) % 10) + 1, jobId % 2 == 0), null));
      cases.add(makeCase(jobId, hosts(((jobId * 3) % 10) + 1, jobId % 3 != 0), null));
      List<String> mixed = MIXED.subList(0, ((jobId * 7) % MIXED.size()) + 1);
      cases.add(makeCase(jobId, mixed, null));
    }

    // large and edge job ids
    int[] bigIds = {0, -1, 101, 1000, 4096, 65535, 99999, 123456, 1000000, 2147483646, 2147483647, -2147483648};
    for (int jobId : bigIds) {
      cases.add(makeCase(jobId, ips(5, true), null));
      cases.add(makeCase(jobId, hosts(3, false), null));
      cases.add(makeCase(jobId, MIXED, null));
    }

    // a job hash above every ring key wraps to the first entry
    List<String> wrapList = ips(3, true);
    long maxKey = ring(wrapList).lastKey();
    int wrapped = 0;
    for (int jobId = 1; jobId < 1_000_000 && wrapped < 3; jobId++) {
      if (hash(String.valueOf(jobId)) > maxKey) {
        cases.add(makeCase(jobId, wrapList, "wraps to the first ring entry"));
        wrapped++;
      }
    }

    // two addresses whose virtual nodes collide: TreeMap.put keeps the later address
    String[] collision = findCollision();
    List<String> ab = List.of(collision[0], collision[1]);
    List<String> ba = List.of(collision[1], collision[0]);
    int found = 0;
    for (int jobId = 1; jobId < 10_000_000 && found < 3; jobId++) {
      if (!hashJob(jobId, ab).equals(hashJob(jobId, ba))) {
        String note = "ring key " + collision[2] + " collides; the later address in the list wins";
        cases.add(makeCase(jobId, ab, note));
        cases.add(makeCase(jobId, ba, note));
        found++;
      }
    }

    // a few raw hashes
    String[] keys = {
      "", "0", "1", "100", "2147483647", "-1", "SHARD-http://10.0.0.1:9999/-NODE-0",
      "SHARD-http://10.0.0.1:9999-NODE-99", "\u6267\u884c\u5668", "SHARD-" + collision[0] + "-NODE-0"
    };

    StringBuilder json = new StringBuilder();
    json.append("{\n");
    json.append("  \"generator\": \"tools/xxl-routing-golden/ConsistentHashGolden.java\",\n");
    json.append("  \"java\": ").append(quote(System.getProperty("java.version"))).append(",\n");
    json.append("  \"virtualNodes\": ").append(VIRTUAL_NODE_NUM).append(",\n");
    json.append("  \"hashes\": [\n");
    for (int i = 0; i < keys.length; i++) {
      json.append("    { \"key\": ").append(quote(keys[i])).append(", \"hash\": ").append(hash(keys[i])).append(" }");
      json.append(i + 1 < keys.length ? ",\n" : "\n");
    }
    json.append("  ],\n");
    json.append("  \"cases\": [\n");
    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      json.append("    { \"jobId\": ").append(c.jobId());
      json.append(", \"jobHash\": ").append(c.jobHash());
      json.append(", \"addresses\": [");
      for (int a = 0; a < c.addresses().size(); a++) {
        json.append(a > 0 ? ", " : "").append(quote(c.addresses().get(a)));
      }
      json.append("], \"expected\": ").append(quote(c.expected()));
      if (c.note() != null) {
        json.append(", \"note\": ").append(quote(c.note()));
      }
      json.append(" }").append(i + 1 < cases.size() ? ",\n" : "\n");
    }
    json.append("  ]\n");
    json.append("}\n");

    Files.writeString(Path.of(args[0]), json.toString(), StandardCharsets.UTF_8);
    System.err.println("wrote " + cases.size() + " cases to " + args[0]);
  }

  /** JSON string literal, ASCII only (anything else as a \\u escape). */
  static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '"' || ch == '\\') {
        out.append('\\').append(ch);
      } else if (ch < 0x20 || ch > 0x7e) {
        out.append(String.format("\\u%04x", (int) ch));
      } else {
        out.append(ch);
      }
    }
    return out.append('"').toString();
  }
}
