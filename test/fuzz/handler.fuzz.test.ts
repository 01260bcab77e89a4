/**
 * Property-based fuzzing of `Auth(request, config)` (issue 8): random methods,
 * paths, query strings, headers, cookies (chunk sets, forged and valid tokens),
 * bodies and configs (valid mixes, invalid ones, a store that fails on purpose),
 * through the real handler. Since issue 19 also: control, format, bidi and
 * look-alike characters in every body field and query value (C0 and NUL, DEL,
 * C1, U+202A-202E, U+2066-2069, U+200B-200F, U+FEFF, U+00AD, U+2028/2029, lone
 * surrogates, ideographic full stops, full-width letters), addresses as
 * spellings of real ones (`support/characters.ts`); planted check cookies
 * (state, PKCE, nonce, WebAuthn challenge) sealed with the config's secret for
 * the right or the wrong provider, with or without `startedBy`, under the
 * `__Host-`, `__Secure-` and plain names; a valid CSRF pair with another
 * site's Origin or Sec-Fetch-Site (property 8); X-Forwarded-For chains and
 * junk, X-Real-IP, Forwarded, odd bytes in X-Forwarded-Host/Proto, Origin
 * (null, foreign, a sibling, the app's own and near misses) and every
 * Sec-Fetch-Site; configs with `trustHost` off (and a fixed url) and with
 * `rateLimit` reading the client address from a proxy header. Property 9
 * checks every address stored or mailed is canonical.
 * Each property has a fixed seed; FUZZ_SEED replays the seed a failure
 * prints, FUZZ_RUNS runs more cases (see support/settings.ts).
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAddressesCanonical, checkCrossSiteRefused, checkNoInjection, checkNoLeaks, checkRedirect, checkRejectedWritesNothing, checkSetCookies, checkStatus, isConfigurationAnswer, isRejected } from "./support/checks.js";
import { configArb, emailConfigArb, faultyConfigArb, invalidConfigArb, validConfigArb } from "./support/config-specs.js";
import { crossSiteFlowArb, emailFlowArb, flowRequestArb, requestArb, visitArb } from "./support/request.js";
import { observe, observeVisit, type Observation } from "./support/run.js";
import { fuzzParameters, fuzzTimeout } from "./support/settings.js";

/** Cases per property: some 9,000 single requests and 300 visits in all, well under a minute on a busy 2-CPU machine. */
const RUNS = 1000;
/** Cases of the properties aimed at one attack (8, 9): their arbitraries go straight at it. */
const AIMED = 500;
/** Visits of 2 to 5 requests for the sequence property. */
const VISITS = 300;

/** Runs `check` on `runs` fuzzed cases of `configs` x `requests`; `seen` sees every observation (for coverage counts). */
async function fuzz(
  seed: number,
  configs: fc.Arbitrary<Parameters<typeof observe>[0]>,
  requests: fc.Arbitrary<Parameters<typeof observe>[1]>,
  check: (obs: Observation) => void,
  seen?: (obs: Observation) => void,
  runs = RUNS,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(configs, requests, async (config, request) => {
      const obs = await observe(config, request);
      check(obs);
      seen?.(obs);
    }),
    fuzzParameters(seed, runs),
  );
}

/** Whether enough cases ran for coverage counts to mean something (FUZZ_RUNS may be tiny when replaying). */
function countsMatter(total: number): boolean {
  return total >= 100;
}

describe("Auth() under fuzzing", () => {
  it(
    "1. never throws, and answers 5xx only for an invalid config, with exactly the generic Configuration error",
    async () => {
      const counts = { total: 0, invalid: 0, ok: 0 };
      await fuzz(810_001, configArb, requestArb, checkStatus, (obs) => {
        counts.total++;
        if (!obs.built.valid) counts.invalid++;
        else if (obs.status < 400) counts.ok++;
      });
      if (countsMatter(counts.total)) {
        expect(counts.invalid).toBeGreaterThan(0);
        expect(counts.ok).toBeGreaterThan(counts.total / 10);
      }
    },
    fuzzTimeout(RUNS),
  );

  it(
    "1b. a deliberate adapter fault is survived or answered with exactly the Configuration error, leaking nothing",
    async () => {
      const counts = { total: 0, fired: 0, configuration: 0 };
      await fuzz(
        810_002,
        faultyConfigArb,
        flowRequestArb,
        (obs) => {
          checkStatus(obs);
          checkNoLeaks(obs);
          checkRedirect(obs);
          checkSetCookies(obs);
        },
        (obs) => {
          counts.total++;
          if (obs.built.fault.fired) counts.fired++;
          if (isConfigurationAnswer(obs)) counts.configuration++;
        },
      );
      if (countsMatter(counts.total)) {
        expect(counts.fired).toBeGreaterThan(counts.total / 20);
        expect(counts.configuration).toBeGreaterThan(0);
      }
    },
    fuzzTimeout(RUNS),
  );

  it(
    "1c. every request to an invalid config gets exactly the generic Configuration error",
    async () => {
      await fuzz(810_003, invalidConfigArb, requestArb, (obs) => {
        checkStatus(obs);
        checkNoLeaks(obs);
        expect(obs.setCookies).toEqual([]);
        expect(obs.redirect).toBeUndefined();
      });
    },
    fuzzTimeout(RUNS),
  );

  it(
    "2. no response carries a stack trace, a secret, or the message of an internal error",
    async () => {
      await fuzz(810_004, configArb, requestArb, checkNoLeaks);
    },
    fuzzTimeout(RUNS),
  );

  it(
    "3. every redirect stays on the public origin, or goes to a configured provider or page",
    async () => {
      const counts = { total: 0, redirects: 0 };
      await fuzz(810_005, configArb, requestArb, checkRedirect, (obs) => {
        counts.total++;
        if (obs.redirect !== undefined) counts.redirects++;
      });
      if (countsMatter(counts.total)) expect(counts.redirects).toBeGreaterThan(counts.total / 10);
    },
    fuzzTimeout(RUNS),
  );

  it(
    "4. a rejected request writes nothing to the store and sets no cookie but the CSRF one",
    async () => {
      const counts = { total: 0, rejectedWithStore: 0, acceptedWrites: 0 };
      await fuzz(810_006, validConfigArb, requestArb, checkRejectedWritesNothing, (obs) => {
        counts.total++;
        if (isRejected(obs) && obs.built.memory) counts.rejectedWithStore++;
        if (!isRejected(obs) && obs.writes.length > 0) counts.acceptedWrites++;
      });
      if (countsMatter(counts.total)) {
        expect(counts.rejectedWithStore).toBeGreaterThan(counts.total / 10);
        // The ledger does see writes: accepted requests make some.
        expect(counts.acceptedWrites).toBeGreaterThan(0);
      }
    },
    fuzzTimeout(RUNS),
  );

  it(
    "5. every Set-Cookie is the handler's own, well-formed, HttpOnly, SameSite=Lax, Path=/, Secure exactly on https",
    async () => {
      const counts = { total: 0, cookies: 0 };
      await fuzz(810_007, configArb, requestArb, checkSetCookies, (obs) => {
        counts.total++;
        counts.cookies += obs.setCookies.length;
      });
      if (countsMatter(counts.total)) expect(counts.cookies).toBeGreaterThan(counts.total / 5);
    },
    fuzzTimeout(RUNS),
  );

  it(
    "6. nothing from the request reaches a response header unescaped (nor a page)",
    async () => {
      await fuzz(810_008, configArb, requestArb, checkNoInjection);
    },
    fuzzTimeout(RUNS),
  );

  it(
    "7. a browser's visit (each request sending the cookies of the answers before it) keeps every property",
    async () => {
      const counts = { total: 0, signedIn: 0 };
      await fc.assert(
        fc.asyncProperty(validConfigArb, visitArb, async (config, visit) => {
          const observations = await observeVisit(config, visit);
          for (const obs of observations) {
            checkStatus(obs);
            checkNoLeaks(obs);
            checkRedirect(obs);
            checkRejectedWritesNothing(obs);
            checkSetCookies(obs);
            checkNoInjection(obs);
            checkAddressesCanonical(obs);
          }
          counts.total++;
          if (observations.some((obs) => obs.body.includes(`"email":"planted@example.com"`))) counts.signedIn++;
        }),
        fuzzParameters(810_009, VISITS),
      );
      // Visits do reach a signed-in session now and then.
      if (countsMatter(counts.total)) expect(counts.signedIn).toBeGreaterThan(0);
    },
    fuzzTimeout(VISITS * 4),
  );

  it(
    "8. a state-changing POST from another site (Origin, Sec-Fetch-Site) is refused and changes nothing, even with a valid CSRF pair",
    async () => {
      const counts = { total: 0, refused: 0 };
      await fuzz(
        810_010,
        validConfigArb,
        crossSiteFlowArb,
        (obs) => {
          checkStatus(obs);
          checkCrossSiteRefused(obs);
        },
        (obs) => {
          counts.total++;
          if (isRejected(obs)) counts.refused++;
        },
        AIMED,
      );
      if (countsMatter(counts.total)) expect(counts.refused).toBeGreaterThan(counts.total / 2);
    },
    fuzzTimeout(AIMED),
  );

  it(
    "9. every address stored or mailed is in its canonical form, however the request spelled it (controls, format characters, full-width, ideographic full stops)",
    async () => {
      const counts = { total: 0, mailed: 0, refused: 0 };
      await fuzz(
        810_011,
        emailConfigArb,
        emailFlowArb,
        (obs) => {
          checkStatus(obs);
          checkAddressesCanonical(obs);
          checkRejectedWritesNothing(obs);
        },
        (obs) => {
          counts.total++;
          if (obs.built.mailedTo.length > 0) counts.mailed++;
          if (isRejected(obs)) counts.refused++;
        },
        AIMED,
      );
      if (countsMatter(counts.total)) {
        // Both ends are reached: some spellings are mailed (canonically), many refused.
        expect(counts.mailed).toBeGreaterThan(0);
        expect(counts.refused).toBeGreaterThan(counts.total / 4);
      }
    },
    fuzzTimeout(AIMED),
  );
});
