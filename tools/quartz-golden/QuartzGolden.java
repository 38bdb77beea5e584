import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneRulesProvider;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.quartz.CronExpression;

/**
 * Golden vectors for tickring's TypeScript port of org.quartz.CronExpression.
 *
 * For every case (expression, time zone, start instant, count) it prints the successive results of
 * {@code getNextValidTimeAfter}, each computed from the previous result, as JSON on stdout. It also records
 * whether Quartz rejects each expression of a list of invalid or odd expressions, and what happens when an
 * accepted one is evaluated (some are accepted by the parser but throw or never return at evaluation).
 *
 * Run it with tools/quartz-golden/generate.sh; the output is committed as
 * shared/domain/schedule/fixtures/quartz-golden.json. Tests read the JSON; they never need Java.
 *
 * A start without an offset is a local date-time in the case's zone (java.time picks the earlier offset in
 * an overlap); the resolved instant is written out as startMs, so the reader never re-interprets it.
 */
public final class QuartzGolden {

  private record Case(String id, String expression, String zone, String start, int count) {}

  private static final String NY = "America/New_York";
  private static final String BER = "Europe/Berlin";
  private static final String LHI = "Australia/Lord_Howe";
  private static final String HAV = "America/Havana";
  private static final String SAO = "America/Sao_Paulo";
  private static final String UTC = "UTC";
  private static final String Y0 = "2026-01-01T00:00:00Z";

  private static final List<Case> CASES = List.of(
      // ---- plain fields, steps, ranges, lists (UTC)
      new Case("every-5s", "0/5 * * * * ?", UTC, Y0, 20),
      new Case("every-15s-star-step", "*/15 * * * * ?", UTC, Y0, 20),
      new Case("every-second", "* * * * * ?", UTC, "2026-01-01T00:00:58.250Z", 20),
      new Case("every-minute-xxl-example", "0 0/1 * * * ?", UTC, Y0, 20),
      new Case("daily-midnight-xxl-seed", "0 0 0 * * ? *", UTC, Y0, 20),
      new Case("sec-range-step", "10-20/3 * * * * ?", UTC, Y0, 20),
      new Case("min-range-step", "0 5-50/15 * * * ?", UTC, Y0, 20),
      new Case("sec-list", "1,7,59 * * * * ?", UTC, Y0, 20),
      new Case("hour-wrapping-range", "0 0 22-2 * * ?", UTC, Y0, 20),
      new Case("second-wrapping-range", "50-5 * * * * ?", UTC, Y0, 20),
      new Case("hour-step-from-offset", "0 0 3/7 * * ?", UTC, Y0, 20),
      new Case("weekdays-business-hours", "0 0 9-17 ? * MON-FRI", UTC, Y0, 20),
      new Case("dow-list-names", "0 30 8 ? * MON,WED,FRI", UTC, Y0, 20),
      new Case("dow-list-numbers", "0 30 8 ? * 2,4,6", UTC, Y0, 20),
      new Case("dow-wrapping-range", "0 0 12 ? * SAT-MON", UTC, Y0, 20),
      new Case("dow-step", "0 0 12 ? * 1/3", UTC, Y0, 20),
      new Case("dow-sunday-is-1", "0 0 12 ? * 1", UTC, Y0, 20),
      new Case("dow-saturday-is-7", "0 0 12 ? * 7", UTC, Y0, 20),
      new Case("month-names-list", "0 0 12 1 JAN,APR,JUL,OCT ?", UTC, Y0, 20),
      new Case("month-name-range", "0 0 12 1 JAN-MAR ?", UTC, Y0, 20),
      new Case("month-wrapping-range", "0 0 0 1 NOV-FEB ?", UTC, Y0, 20),
      new Case("month-step", "0 0 0 1 2/5 ?", UTC, Y0, 20),
      new Case("dom-list", "0 0 6 1,15 * ?", UTC, Y0, 20),
      new Case("dom-range-step", "0 0 6 1-31/10 * ?", UTC, Y0, 20),
      new Case("lowercase-names", "0 0 7 ? jan-jun mon", UTC, Y0, 20),
      new Case("tabs-and-spaces", "0\t0  7 ? *\tTUE", UTC, Y0, 20),
      // ---- start-time rounding
      new Case("start-with-millis-rounds-up", "0/5 * * * * ?", UTC, "2026-01-01T00:00:04.999Z", 20),
      new Case("start-on-a-fire-time-is-excluded", "0 0 12 * * ?", UTC, "2026-01-01T12:00:00Z", 20),
      new Case("start-one-ms-before-fire", "0 0 12 * * ?", UTC, "2026-01-01T11:59:59.999Z", 20),
      new Case("start-one-ms-after-fire", "0 0 12 * * ?", UTC, "2026-01-01T12:00:00.001Z", 20),
      // ---- L, L-n, W, LW in day-of-month
      new Case("dom-L", "0 0 12 L * ?", UTC, Y0, 20),
      new Case("dom-L-3", "0 0 12 L-3 * ?", UTC, Y0, 20),
      new Case("dom-L-0", "0 0 12 L-0 * ?", UTC, Y0, 20),
      new Case("dom-L-27", "0 0 12 L-27 * ?", UTC, Y0, 20),
      new Case("dom-L-30-skips-short-months", "0 0 0 L-30 * ?", UTC, Y0, 20),
      new Case("dom-15W", "0 0 12 15W * ?", UTC, Y0, 20),
      new Case("dom-1W-no-month-crossing", "0 0 12 1W * ?", UTC, Y0, 24),
      new Case("dom-31W-only-31-day-months", "0 0 12 31W * ?", UTC, Y0, 20),
      new Case("dom-30W", "0 0 12 30W * ?", UTC, Y0, 20),
      new Case("dom-LW", "0 0 12 LW * ?", UTC, Y0, 24),
      new Case("dom-L-2W", "0 0 12 L-2W * ?", UTC, Y0, 20),
      new Case("dom-W-start-mid-day", "0 0 12 15W * ?", UTC, "2026-05-15T13:00:00Z", 20),
      new Case("dom-W-start-on-fire-second", "0 0 12 15W * ?", UTC, "2026-05-15T11:59:59Z", 5),
      new Case("dom-LW-with-hours", "0 0 8,20 LW * ?", UTC, Y0, 20),
      new Case("dom-L-every-15-min", "0 0/15 23 L * ?", UTC, Y0, 20),
      // ---- L and # in day-of-week
      new Case("dow-6L-last-friday", "0 0 12 ? * 6L", UTC, Y0, 20),
      new Case("dow-FRIL-last-friday-name", "0 0 12 ? * FRIL", UTC, Y0, 20),
      new Case("dow-1L-last-sunday", "0 0 2 ? * 1L", UTC, Y0, 20),
      new Case("dow-L-alone-is-saturday", "0 0 12 ? * L", UTC, Y0, 20),
      new Case("dow-6#3-third-friday", "0 0 12 ? * 6#3", UTC, Y0, 20),
      new Case("dow-FRI#3-name", "0 0 12 ? * FRI#3", UTC, Y0, 20),
      new Case("dow-2#5-fifth-monday", "0 0 12 ? * 2#5", UTC, Y0, 20),
      new Case("dow-1#1-first-sunday", "0 0 12 ? * 1#1", UTC, Y0, 20),
      new Case("dow-7#4", "0 30 9 ? * 7#4", UTC, Y0, 20),
      new Case("dow-4#2-every-30-min", "0 0/30 10-11 ? * 4#2", UTC, Y0, 20),
      // ---- years, leap years, month ends
      new Case("feb-29-leap-years", "0 0 0 29 2 ?", UTC, Y0, 20),
      new Case("feb-29-year-range", "0 0 0 29 2 ? 2026-2040", UTC, Y0, 20),
      new Case("feb-L-leap-and-common", "0 0 0 L 2 ?", UTC, Y0, 20),
      new Case("dom-31-skips-short-months", "0 0 0 31 * ?", UTC, Y0, 20),
      new Case("dom-30-skips-february", "0 0 0 30 * ?", UTC, Y0, 20),
      new Case("dom-29-february-in-leap-years", "0 0 0 29 * ?", UTC, Y0, 20),
      new Case("year-list", "0 0 0 1 1 ? 2027,2030,2035", UTC, Y0, 20),
      new Case("year-step", "0 0 0 1 1 ? 2026/3", UTC, Y0, 20),
      new Case("year-range-with-last-friday", "0 15 10 ? * 6L 2026-2027", UTC, Y0, 30),
      new Case("year-in-the-past", "0 0 0 1 1 ? 2025", UTC, Y0, 20),
      new Case("third-friday-single-year", "0 0 0 ? * 6#3 2026", UTC, Y0, 20),
      new Case("year-2100-not-leap", "0 0 0 29 2 ? 2096-2104", UTC, Y0, 20),
      new Case("feb-30-never", "0 0 0 30 2 ?", UTC, Y0, 20),
      new Case("apr-31-never", "0 0 0 31 APR ?", UTC, Y0, 20),
      new Case("new-year-across-boundary", "0 0 0 1 1 ?", UTC, "2026-12-31T23:59:59.500Z", 20),
      // ---- Quartz parser quirks (accepted by Quartz; the port must agree)
      new Case("quirk-full-day-name", "0 0 0 ? * MONDAY", UTC, Y0, 20),
      new Case("quirk-name-range-step-ignored", "0 0 0 ? * MON-FRI/2", UTC, Y0, 20),
      new Case("quirk-step-zero", "0/0 0 0 * * ?", UTC, Y0, 20),
      new Case("quirk-range-step-zero", "0 0 0 1-5/0 * ?", UTC, Y0, 20),
      new Case("quirk-trailing-garbage", "0 0 5X * * ?", UTC, Y0, 20),
      new Case("quirk-dow-LW-is-saturday", "0 0 0 ? * LW", UTC, Y0, 20),
      new Case("quirk-star-negative-step", "*/-5 0 0 * * ?", UTC, Y0, 20),
      // ---- other zones without DST
      new Case("kolkata-half-hour-offset", "0 0 0 * * ?", "Asia/Kolkata", Y0, 20),
      new Case("tokyo-month-end", "0 0 9 L * ?", "Asia/Tokyo", Y0, 20),
      // ---- America/New_York: spring forward 2026-03-08 02:00 -> 03:00
      new Case("ny-gap-0230-daily", "0 30 2 * * ?", NY, "2026-03-06T00:00:00", 20),
      new Case("ny-gap-every-15-min-1-to-3", "0 0/15 1-3 * * ?", NY, "2026-03-07T00:00:00", 40),
      new Case("ny-gap-hourly", "0 0 * * * ?", NY, "2026-03-07T20:00:00", 20),
      new Case("ny-gap-every-minute-hour-1", "0 * 1 * * ?", NY, "2026-03-08T00:30:00", 40),
      new Case("ny-gap-every-minute-hour-2", "0 * 2 * * ?", NY, "2026-03-07T02:55:00", 20),
      new Case("ny-gap-hour-2-only", "0 0 2 * * ?", NY, "2026-03-06T00:00:00", 20),
      new Case("ny-gap-sunday-0230", "0 30 2 ? * SUN", NY, "2026-02-20T00:00:00", 20),
      new Case("ny-gap-every-30-min", "0 0/30 * * * ?", NY, "2026-03-08T00:00:00", 20),
      new Case("ny-gap-every-20-s-at-0159", "0/20 59 1 * * ?", NY, "2026-03-07T00:00:00", 20),
      // ---- America/New_York: fall back 2026-11-01 02:00 -> 01:00
      new Case("ny-overlap-0130-daily", "0 30 1 * * ?", NY, "2026-10-30T00:00:00", 20),
      new Case("ny-overlap-every-15-min-1-to-3", "0 0/15 1-3 * * ?", NY, "2026-10-31T12:00:00", 40),
      new Case("ny-overlap-hourly", "0 0 * * * ?", NY, "2026-10-31T20:00:00", 20),
      new Case("ny-overlap-every-minute-hour-1", "0 * 1 * * ?", NY, "2026-11-01T00:50:00", 80),
      new Case("ny-overlap-every-minute-hour-1-from-second-pass", "0 * 1 * * ?", NY, "2026-11-01T01:10:00-05:00", 20),
      new Case("ny-overlap-every-30-min", "0 0/30 * * * ?", NY, "2026-11-01T00:00:00", 20),
      new Case("ny-overlap-sunday-0130", "0 30 1 ? * SUN", NY, "2026-10-20T00:00:00", 20),
      new Case("ny-overlap-every-10-s-hour-1", "0/10 59 1 * * ?", NY, "2026-11-01T00:00:00", 20),
      new Case("ny-after-2037-gap", "0 30 2 * * ?", NY, "2040-03-09T00:00:00", 20),
      new Case("ny-after-2037-overlap", "0 0/20 1 * * ?", NY, "2040-11-03T00:00:00", 20),
      // ---- Europe/Berlin: spring forward 2026-03-29 02:00 -> 03:00, fall back 2026-10-25 03:00 -> 02:00
      new Case("berlin-gap-0230-daily", "0 30 2 * * ?", BER, "2026-03-27T00:00:00", 20),
      new Case("berlin-gap-every-15-min-1-to-3", "0 0/15 1-3 * * ?", BER, "2026-03-28T12:00:00", 40),
      new Case("berlin-gap-hourly", "0 0 * * * ?", BER, "2026-03-28T22:00:00", 20),
      new Case("berlin-gap-every-minute-hour-2", "0 * 2 * * ?", BER, "2026-03-28T02:50:00", 20),
      new Case("berlin-gap-last-sunday-0230", "0 30 2 ? * 1L", BER, "2026-01-01T00:00:00", 20),
      new Case("berlin-overlap-0230-daily", "0 30 2 * * ?", BER, "2026-10-23T00:00:00", 20),
      new Case("berlin-overlap-every-15-min-1-to-3", "0 0/15 1-3 * * ?", BER, "2026-10-24T12:00:00", 40),
      new Case("berlin-overlap-hourly", "0 0 * * * ?", BER, "2026-10-24T22:00:00", 20),
      new Case("berlin-overlap-every-minute-hour-2", "0 * 2 * * ?", BER, "2026-10-25T01:50:00", 80),
      new Case("berlin-overlap-every-minute-hour-1", "0 * 1 * * ?", BER, "2026-10-25T00:50:00", 20),
      new Case("berlin-overlap-every-10-min", "0 0/10 * * * ?", BER, "2026-10-25T01:00:00", 20),
      // ---- Australia/Lord_Howe: back 2026-04-05 02:00 -> 01:30, forward 2026-10-04 02:00 -> 02:30
      new Case("lord-howe-overlap-0145-daily", "0 45 1 * * ?", LHI, "2026-04-03T00:00:00", 20),
      new Case("lord-howe-overlap-every-10-min", "0 0/10 1-2 * * ?", LHI, "2026-04-05T00:00:00", 30),
      new Case("lord-howe-overlap-hourly", "0 0 * * * ?", LHI, "2026-04-04T22:00:00", 20),
      new Case("lord-howe-gap-0215-daily", "0 15 2 * * ?", LHI, "2026-10-02T00:00:00", 20),
      new Case("lord-howe-gap-every-10-min", "0 0/10 1-3 * * ?", LHI, "2026-10-04T00:00:00", 30),
      new Case("lord-howe-gap-hourly", "0 0 * * * ?", LHI, "2026-10-03T22:00:00", 20),
      // ---- midnight transitions: America/Havana (00:00 -> 01:00 on 2026-03-08; 01:00 -> 00:00 on 2026-11-01)
      new Case("havana-gap-midnight-daily", "0 0 0 * * ?", HAV, "2026-03-05T00:00:00", 20),
      new Case("havana-gap-0030-daily", "0 30 0 * * ?", HAV, "2026-03-05T00:00:00", 20),
      new Case("havana-gap-every-15-min", "0 0/15 * * * ?", HAV, "2026-03-07T23:00:00", 20),
      new Case("havana-gap-first-of-month", "0 0 0 8 * ?", HAV, "2026-01-01T00:00:00", 20),
      new Case("havana-overlap-midnight-daily", "0 0 0 * * ?", HAV, "2026-10-29T00:00:00", 20),
      new Case("havana-overlap-every-15-min", "0 0/15 0 * * ?", HAV, "2026-10-31T23:00:00", 30),
      // ---- America/Sao_Paulo 2018: midnight gap 2018-11-04 00:00 -> 01:00, overlap 2018-02-17 24:00 -> 23:00
      new Case("sao-paulo-gap-midnight-daily", "0 0 0 * * ?", SAO, "2018-11-01T00:00:00", 20),
      new Case("sao-paulo-gap-sunday-midnight", "0 0 0 ? * SUN", SAO, "2018-10-01T00:00:00", 20),
      new Case("sao-paulo-overlap-2330-daily", "0 30 23 * * ?", SAO, "2018-02-15T00:00:00", 20),
      new Case("sao-paulo-overlap-every-20-min", "0 0/20 23 * * ?", SAO, "2018-02-17T22:00:00", 20),
      // ---- after 2037 (past the JDK's pre-computed transitions), a skipped calendar day, Africa/Cairo
      new Case("havana-2043-gap-nearest-weekday", "22 0 0 31W 7 ? 2029/1", HAV, "2043-03-07T02:27:54", 20),
      new Case("havana-2042-gap-every-15-min", "0 0/15 * * * ?", HAV, "2042-03-08T23:00:00", 20),
      new Case("cairo-2038-gap-midnight", "0 0 0 * * ?", "Africa/Cairo", "2038-04-27T00:00:00", 20),
      new Case("cairo-2044-gap-hours-0-3", "0 0 0-3 ? * FRI-WED", "Africa/Cairo", "2044-04-28T07:16:12", 20),
      new Case("apia-skipped-2011-12-30-daily-noon", "0 0 12 * * ?", "Pacific/Apia", "2011-12-27T00:00:00", 20),
      new Case("chatham-45-min-offset-gap", "0 0/30 2-4 * * ?", "Pacific/Chatham", "2026-09-27T00:00:00", 20));

  private static final List<String> INVALID = List.of(
      "",
      "0 0 0 * *",
      "0 0 0 * * * *",
      "0 0 0 * * ? 2026 extra",
      "60 0 0 * * ?",
      "0 60 0 * * ?",
      "0 0 24 * * ?",
      "0 0 0 0 * ?",
      "0 0 0 32 * ?",
      "0 0 0 * 0 ?",
      "0 0 0 * 13 ?",
      "0 0 0 ? * 0",
      "0 0 0 ? * 8",
      "0 0 0 ? * 1-8",
      "0 0 0 * * *",
      "0 0 0 1 * 1",
      "0 0 0 ? * ?",
      "? 0 0 * * ?",
      "0 0 ? * * ?",
      "0 0 0 * ? ?",
      "0 0 0 * FOO ?",
      "0 0 0 ? * FOO",
      "0 0 0 ? * MON-FOO",
      "0 0 0 ? JAN-FOO *",
      "0 0 0 JAN * ?",
      "0 0 0 L,15 * ?",
      "0 0 0 ? * 6L,1",
      "0 0 0 ? * 6#3,2#1",
      "0 0 0 ? * 2#6",
      "0 0 0 ? * 2#0",
      "0 0 0 ? * 2#",
      "0 0 0 L-31 * ?",
      "0 0 0 32W * ?",
      "0 0 0 15L * ?",
      "0 0 0 ? * 2W",
      "0 0 0 * * ?W",
      "0 0 15W * * ?",
      "0 0 2#1 * * ?",
      "0/ * * * * ?",
      "*/ * * * * ?",
      "0/60 * * * * ?",
      "0 0/60 * * * ?",
      "0 0 0/24 * * ?",
      "0 0 0 1/32 * ?",
      "0 0 0 1 1/13 ?",
      "0 0 0 ? * 1/8",
      "0 0 0 ? * */8",
      "5/x * * * * ?",
      "a * * * * ?",
      "0 0 0 * * ? 2030-2020",
      "1-x * * * * ?",
      "- * * * * ?",
      "0 0 0 L- * ?",
      "99999999999 * * * * ?",
      "0 0 0 ? * 9L",
      "0 0 0 ? * 0L",
      // accepted by Quartz 2.3.2 but unusable; recorded so the port's stricter choices are visible
      "0 0 0 * * ? 1969",
      "0 0 0 * * ? 2300",
      "0 0 0 * * ? 1900-1980",
      ", 0 0 * * ?",
      "L 0 0 * * ?",
      "0 0 0 0W * ?",
      "0 0 0 L-28W * ?",
      "0 0 0 L-30W * ?",
      "0 0 0 ? * 8#2",
      "0 0 0 ? * 0#2");

  /** Valid expressions whose getNextValidTimeAfter Quartz may never return from, for a given start. */
  private static final List<Case> MAY_HANG = List.of(
      new Case("apia-lw-december-2011", "0 0 12 LW 12 ?", "Pacific/Apia", "2011-11-01T00:00:00Z", 1),
      new Case("apia-lw-december-2010", "0 0 12 LW 12 ?", "Pacific/Apia", "2010-11-01T00:00:00Z", 1));

  public static void main(String[] args) throws Exception {
    ExecutorService pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r);
      t.setDaemon(true);
      return t;
    });
    DateTimeFormatter iso = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    StringBuilder out = new StringBuilder();
    out.append("{\n");
    out.append("  \"generator\": {\n");
    out.append("    \"tool\": \"tools/quartz-golden/QuartzGolden.java\",\n");
    out.append("    \"quartz\": ").append(str(CronExpression.class.getPackage().getImplementationVersion() == null
        ? "2.3.2" : CronExpression.class.getPackage().getImplementationVersion())).append(",\n");
    out.append("    \"java\": ").append(str(System.getProperty("java.version"))).append(",\n");
    out.append("    \"tzdb\": ").append(str(ZoneRulesProvider.getVersions("UTC").lastKey())).append(",\n");
    out.append("    \"quartzMaxYear\": ").append(CronExpression.MAX_YEAR).append("\n");
    out.append("  },\n");

    out.append("  \"cases\": [\n");
    for (int c = 0; c < CASES.size(); c++) {
      Case k = CASES.get(c);
      ZoneId zone = ZoneId.of(k.zone());
      long startMs = parseStart(k.start(), zone);
      CronExpression cron = new CronExpression(k.expression());
      cron.setTimeZone(TimeZone.getTimeZone(k.zone()));
      Future<List<Long>> f = pool.submit(() -> {
        List<Long> times = new ArrayList<>();
        Date d = new Date(startMs);
        for (int i = 0; i < k.count(); i++) {
          d = cron.getNextValidTimeAfter(d);
          if (d == null) break;
          times.add(d.getTime());
        }
        return times;
      });
      List<Long> times = f.get(10, TimeUnit.SECONDS);
      out.append("    {\n");
      out.append("      \"id\": ").append(str(k.id())).append(",\n");
      out.append("      \"expression\": ").append(str(k.expression())).append(",\n");
      out.append("      \"timeZone\": ").append(str(k.zone())).append(",\n");
      out.append("      \"start\": ").append(str(iso.format(Instant.ofEpochMilli(startMs).atZone(zone)))).append(",\n");
      out.append("      \"startMs\": ").append(startMs).append(",\n");
      out.append("      \"count\": ").append(k.count()).append(",\n");
      out.append("      \"times\": [");
      for (int i = 0; i < times.size(); i++) out.append(i == 0 ? "" : ", ").append(times.get(i));
      out.append("],\n");
      out.append("      \"local\": [");
      for (int i = 0; i < times.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(str(iso.format(Instant.ofEpochMilli(times.get(i)).atZone(zone))));
      }
      out.append("]\n");
      out.append(c == CASES.size() - 1 ? "    }\n" : "    },\n");
    }
    out.append("  ],\n");

    out.append("  \"mayHang\": [\n");
    for (int c = 0; c < MAY_HANG.size(); c++) {
      Case k = MAY_HANG.get(c);
      ZoneId zone = ZoneId.of(k.zone());
      long startMs = parseStart(k.start(), zone);
      CronExpression cron = new CronExpression(k.expression());
      cron.setTimeZone(TimeZone.getTimeZone(k.zone()));
      Future<Date> f = pool.submit(() -> cron.getNextValidTimeAfter(new Date(startMs)));
      String result;
      try {
        Date d = f.get(3, TimeUnit.SECONDS);
        result = d == null ? "null" : String.valueOf(d.getTime());
      } catch (TimeoutException e) {
        f.cancel(true);
        result = "hangs";
      }
      out.append("    { \"id\": ").append(str(k.id())).append(", \"expression\": ").append(str(k.expression()))
          .append(", \"timeZone\": ").append(str(k.zone())).append(", \"startMs\": ").append(startMs)
          .append(", \"quartz\": ").append(str(result)).append(c == MAY_HANG.size() - 1 ? " }\n" : " },\n");
    }
    out.append("  ],\n");

    out.append("  \"invalid\": [\n");
    for (int i = 0; i < INVALID.size(); i++) {
      String expr = INVALID.get(i);
      String rejected;
      String message = null;
      String evaluation = null;
      try {
        CronExpression cron = new CronExpression(expr);
        cron.setTimeZone(TimeZone.getTimeZone("UTC"));
        rejected = "false";
        // Evaluate up to 24 successive fire times from 2026-01-01Z; say how far it got.
        int[] done = {0};
        String[] first = {null};
        Future<String> f = pool.submit(() -> {
          Date d = new Date(parseStart(Y0, ZoneId.of("UTC")));
          try {
            for (; done[0] < 24; done[0]++) {
              d = cron.getNextValidTimeAfter(d);
              if (d == null) return "never fires again after " + done[0] + " fire(s) (null)";
              if (first[0] == null) first[0] = d.toInstant().toString();
            }
            return "fires (first at " + first[0] + ", 24 successive times computed)";
          } catch (Throwable t) {
            return "throws " + t.getClass().getName() + " after " + done[0] + " fire(s)";
          }
        });
        try {
          evaluation = f.get(3, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          f.cancel(true);
          evaluation = "hangs (getNextValidTimeAfter never returns) after " + done[0] + " fire(s)";
        }
      } catch (java.text.ParseException e) {
        rejected = "true";
        message = e.getMessage();
      }
      out.append("    { \"expression\": ").append(str(expr)).append(", \"rejected\": ").append(rejected);
      if (message != null) out.append(", \"message\": ").append(str(message));
      if (evaluation != null) out.append(", \"evaluation\": ").append(str(evaluation));
      out.append(i == INVALID.size() - 1 ? " }\n" : " },\n");
    }
    out.append("  ]\n");
    out.append("}\n");
    System.out.print(out);
    System.exit(0);
  }

  private static long parseStart(String s, ZoneId zone) {
    if (s.endsWith("Z") || s.matches(".*[+-]\\d\\d:\\d\\d$")) {
      return OffsetDateTime.parse(s).toInstant().toEpochMilli();
    }
    return LocalDateTime.parse(s).atZone(zone).toInstant().toEpochMilli();
  }

  private static String str(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        default -> {
          if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
          else b.append(ch);
        }
      }
    }
    return b.append('"').toString();
  }
}
