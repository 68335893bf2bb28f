import { describe, expect, test } from "bun:test";
import { addressDetector } from "../../src/pipeline/pii/detectors/address";
import { cardDetector, luhnValid } from "../../src/pipeline/pii/detectors/card";
import { emailDetector } from "../../src/pipeline/pii/detectors/email";
import { ibanDetector } from "../../src/pipeline/pii/detectors/iban";
import { ipDetector } from "../../src/pipeline/pii/detectors/ip";
import { personDetector } from "../../src/pipeline/pii/detectors/person";
import { phoneDetector } from "../../src/pipeline/pii/detectors/phone";
import { secretDetector } from "../../src/pipeline/pii/detectors/secret";
import { ssnDetector } from "../../src/pipeline/pii/detectors/ssn";
import { urlCredentialsDetector } from "../../src/pipeline/pii/detectors/url-credentials";
import type { Detector } from "../../src/pipeline/pii/types";

/** The values a detector finds in `text`. */
const found = (d: Detector, text: string) => d.detect(text).map((s) => text.slice(s.start, s.end));

describe("each detector alone", () => {
  test("email", () => {
    expect(found(emailDetector, "Write to jane.doe+news@mail.example.co.uk or BOB_K@corp.io.")).toEqual(["jane.doe+news@mail.example.co.uk", "BOB_K@corp.io"]);
    expect(found(emailDetector, "use `@app.route` and @decorators; foo@bar is no address")).toEqual([]);
  });

  test("phone: international and national formats", () => {
    const phone = phoneDetector();
    for (const n of ["+44 20 7946 0958", "+1-203-305-2492x5662", "(415) 555-0132", "0477 11 28 98", "02.27.96.63.08", "(03) 5327 5996", "06-10446904"]) {
      expect(found(phone, `You can reach me at ${n} after six.`)).toEqual([n]);
    }
    expect(found(phone, "call 9469 9966")).toEqual(["9469 9966"]);
    expect(found(phone, "2546712361")).toEqual(["2546712361"]);
  });

  test("phone: a tax or PIN word further before the number does not make it something else", () => {
    const phone = phoneDetector();
    expect(found(phone, "Call the tax office on 02 9876 5432 tomorrow.")).toEqual(["02 9876 5432"]);
    expect(found(phone, "Ring the PIN reset line, 0412 345 678")).toEqual(["0412 345 678"]);
  });

  test("phone: numbers that are something else", () => {
    const phone = phoneDetector();
    for (const t of [
      "order 12345678",
      "Order #4821-9934",
      "released 2024-01-15",
      "pi is 3.14159265",
      "costs $1 299 000",
      "from 1990-2020",
      "500-1000 tokens",
      "1 2 3 4 5 6 7",
      "ISBN 978-3-16-148410-0",
      "Suite 680 36 4022 Oakridge Lane",
      "My driver's license number is 425700624",
      "Ship to Koramangala, Pune 411014. Contact me if the gate is shut.",
      "Entrega em Curitiba - PR, 80010-120, por favor",
      "Invoice from Harbour Tiles Pty Ltd, ABN 12 345 678 901, due Friday",
      '10.1.4.22 - - [03/Mar/2025:08:12:44 +0000] "POST /login HTTP/1.1" 302 4410 "-" "curl/8.1"',
    ]) {
      expect(found(phone, t)).toEqual([]);
    }
  });

  test("card: Luhn-valid issuer numbers only", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(found(cardDetector, "card 4111 1111 1111 1111, amex 3782-822463-10005, mc 5454639881222959")).toEqual([
      "4111 1111 1111 1111",
      "3782-822463-10005",
      "5454639881222959",
    ]);
    expect(found(cardDetector, 'card 4111 1111 1111 1112 and id 1234567890123456 and eventId="456712345678901234"')).toEqual([]);
  });

  test("IBAN: mod-97 checked, any case, grouped or not", () => {
    expect(found(ibanDetector, "pay GB82 WEST 1234 5698 7654 32 now")).toEqual(["GB82 WEST 1234 5698 7654 32"]);
    expect(found(ibanDetector, "to de89370400440532013000.")).toEqual(["de89370400440532013000"]);
    expect(found(ibanDetector, "GB83WEST12345698765432 has a bad check digit")).toEqual([]);
  });

  test("SSN: the SSA's rules", () => {
    expect(found(ssnDetector, "SSN 466-16-7762; ssn: 123 45 6789")).toEqual(["466-16-7762", "123 45 6789"]);
    for (const bad of ["000-12-3456", "666-12-3456", "912-12-3456", "123-00-4567", "123-45-0000"]) expect(found(ssnDetector, `ssn ${bad}`)).toEqual([]);
    expect(found(ssnDetector, "Suite 680 36 4022")).toEqual([]);
  });

  test("IP: v4 and v6, not versions, networks or non-hosts", () => {
    expect(found(ipDetector, "from 203.0.113.7 and 2001:db8:85a3::8a2e:370:7334, then 10.20.1.5:6379").sort()).toEqual([
      "10.20.1.5",
      "2001:db8:85a3::8a2e:370:7334",
      "203.0.113.7",
    ]);
    expect(found(ipDetector, "version 1.2.3.4, v10.0.0.1, 1.2.3.4.5, 10.0.0.0/16, 0.0.0.0, 127.0.0.1, 12:30:45, std::vector, 999.1.1.1")).toEqual([]);
    // A sentence about upgrades or releases names versions, unless it also speaks of networks.
    expect(found(ipDetector, "We went from 2.4.0.1 to 2.5.0.3 in the last release. Patch 4.1.0.2 is out.")).toEqual([]);
    // Only right after a version cue: an address in a sentence that merely mentions an update stays one.
    for (const t of [
      "Since the firmware update, 81.2.69.160 keeps dropping my calls",
      "Patch Tuesday broke 81.2.69.160 for me",
      "Please update the record for john: 81.2.69.160",
    ])
      expect([t, found(ipDetector, t)]).toEqual([t, ["81.2.69.160"]]);
    expect(found(ipDetector, "Update the firewall to allow 198.51.100.23. After the upgrade, ping 203.0.113.9 again.")).toEqual([
      "198.51.100.23",
      "203.0.113.9",
    ]);
  });

  test("URL credentials: the user:password part", () => {
    expect(found(urlCredentialsDetector, "clone https://bob:s3cret@git.example.com/repo.git")).toEqual(["bob:s3cret"]);
    expect(found(urlCredentialsDetector, "ssh://git@github.com/x and https://example.com/a:b")).toEqual([]);
  });

  test("secrets: vendor shapes and assigned values", () => {
    const aws = "AKIA" + "IOSFODNN7EXAMPLE";
    const gh = "ghp_" + "a".repeat(36);
    expect(found(secretDetector, `key ${aws} token ${gh}`)).toEqual([aws, gh]);
    expect(found(secretDetector, "password: hunter22x and api_key=ab12cd34ef56")).toEqual(["hunter22x", "ab12cd34ef56"]);
    expect(found(secretDetector, "Authorization: Bearer abcdef0123456789XYZ")).toEqual(["abcdef0123456789XYZ"]);
    expect(
      found(
        secretDetector,
        "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, password is required, ${API_KEY}, process.env.TOKEN, TOKEN_LIMIT",
      ),
    ).toEqual([]);
  });

  test("secrets: every vendor shape alone in a text (each has an anchor the detector looks for first)", () => {
    const keys = [
      "sk-" + "proj-" + "a1B2c3D4e5F6g7H8i9J0kLmN",
      "AKIA" + "IOSFODNN7EXAMPLE",
      "ASIA" + "IOSFODNN7EXAMPLE",
      "ghp_" + "b".repeat(36),
      "github_pat_" + "c".repeat(50),
      "xoxb-" + "1234567890-abcdef",
      "AIza" + "d".repeat(35),
      "sk_live_" + "e".repeat(16),
      "svc_live_" + "f".repeat(38),
      "glpat-" + "g".repeat(20),
      "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0" + "." + "h".repeat(20),
    ];
    for (const key of keys) expect(found(secretDetector, `here it is ${key} thanks`)).toEqual([key]);
  });

  test("person and address: the trained tagger", () => {
    expect(found(personDetector, "Yesterday Margarethe Vandersloot sent the report.")).toEqual(["Margarethe Vandersloot"]);
    const addr = found(addressDetector, "Please ship it to 742 Evergreen Terrace, Apt. 12 before Friday.");
    expect(addr.join(" ")).toContain("742 Evergreen Terrace");
    expect(found(personDetector, "Write a Python function that sorts a list.")).toEqual([]);
    expect(found(addressDetector, "Write a Python function that sorts a list of 42 numbers.")).toEqual([]);
  });
});
