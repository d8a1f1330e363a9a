/**
 * Booking questions: a service asks, a booking answers (plain or from a hold), the answers are
 * checked against the service (422 naming `answers.<key>`, nothing stored) and shown on reads.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, totalOf, validationError } from "../support/api";
import { at, bookingBody, d1Bookings, postBooking } from "../support/bookings";
import { hold } from "../support/fixtures";

const questions = [
  { key: "allergies", label: "Any allergies?", type: "text", required: true },
  { key: "age", label: "Age", type: "number" },
  { key: "first_visit", label: "First visit?", type: "boolean" },
  { key: "length", label: "Hair length", type: "choice", choices: ["short", "medium", "long"] },
];

async function salonWithQuestions() {
  const { apiKey, businessId } = await createAccount();
  const service = await createService(apiKey, { questions });
  return { apiKey, businessId, serviceId: service.id as string, service };
}

describe("happy", () => {
  it("the service lists its questions; a booking's answers are kept and shown on every read", async () => {
    const s = await salonWithQuestions();
    expect(s.service.questions).toEqual(questions.map((q) => ({ required: false, ...q })));
    const answers = { allergies: "None", age: 41, first_visit: true, length: "long" };
    const res = await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { answers }));
    expect(res.status).toBe(201);
    const booking = await json(res);
    expect(booking.answers).toEqual(answers);
    expect((await json(await api("GET", `/bookings/${booking.id}`, { key: s.apiKey }))).answers).toEqual(answers);
    expect((await json(await api("GET", "/bookings", { key: s.apiKey }))).data[0].answers).toEqual(answers);
  });

  it("a booking from a hold takes answers too, checked against the hold's service", async () => {
    const s = await salonWithQuestions();
    const held = await hold(s.apiKey, s.serviceId, at(2, "11:00"));
    const body = { holdId: held.id, customerName: "Ada", customerEmail: "ada@example.com" };
    await validationError(await postBooking(s.apiKey, body), "answers.allergies");
    const res = await postBooking(s.apiKey, { ...body, answers: { allergies: "Nuts" } });
    expect(res.status).toBe(201);
    expect((await json(res)).answers).toEqual({ allergies: "Nuts" });
  });

  it("a service without questions books without answers and shows {}", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const booking = await json(await postBooking(apiKey, bookingBody(service.id, at(2, "10:00"))));
    expect(booking.answers).toEqual({});
  });

  it("changing the questions leaves existing bookings' answers as they were", async () => {
    const s = await salonWithQuestions();
    const booking = await json(
      await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { answers: { allergies: "Dust" } })),
    );
    const patched = await api("PATCH", `/services/${s.serviceId}`, { key: s.apiKey, body: { questions: [] } });
    expect(patched.status).toBe(200);
    expect((await json(await api("GET", `/bookings/${booking.id}`, { key: s.apiKey }))).answers).toEqual({
      allergies: "Dust",
    });
    // And new bookings no longer need (or may give) them.
    await validationError(
      await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "11:00"), { answers: { allergies: "Dust" } })),
      "answers.allergies",
    );
  });
});

describe("keys", () => {
  it("a camelCase key (like every field of this API) is accepted, asked and answered in a booking", async () => {
    const { apiKey, businessId } = await createAccount();
    const camel = [
      { key: "firstVisit", label: "First visit?", type: "boolean", required: true },
      { key: "hairLength2", label: "Hair length", type: "choice", choices: ["short", "long"] },
      { key: "allergies", label: "Any allergies?", type: "text" },
    ];
    const service = await createService(apiKey, { questions: camel });
    expect(service.questions.map((q: { key: string }) => q.key)).toEqual(["firstVisit", "hairLength2", "allergies"]);
    const answers = { firstVisit: true, hairLength2: "long", allergies: "None" };
    const res = await postBooking(apiKey, bookingBody(service.id, at(2, "10:00"), { answers }));
    expect(res.status, await res.clone().text()).toBe(201);
    const booking = await json(res);
    expect(booking.answers).toEqual(answers);
    expect((await json(await api("GET", `/bookings/${booking.id}`, { key: apiKey }))).answers).toEqual(answers);
    // Keys are case-sensitive, like JSON member names: another casing is no question of the service.
    await validationError(
      await postBooking(apiKey, bookingBody(service.id, at(2, "11:00"), { answers: { firstvisit: true } })),
      "answers.firstvisit",
    );
    expect(await d1Bookings(businessId)).toHaveLength(1);
  });

  it("the OpenAPI document states the key's pattern: letters of both cases, digits and _", async () => {
    const doc = await json(await api("GET", "/openapi.json"));
    const key = doc.components.schemas.Question.properties.key;
    expect(key.pattern).toBe("^[A-Za-z][A-Za-z0-9_]{0,39}$");
    expect(key.description).toContain("case-sensitive");
  });

  it("keys differing only in case are two questions, each answered under its own key", async () => {
    const { apiKey } = await createAccount();
    const both = [
      { key: "firstVisit", label: "First visit here?", type: "boolean", required: true },
      { key: "firstvisit", label: "First visit ever?", type: "boolean", required: true },
    ];
    const service = await createService(apiKey, { questions: both });
    const one = await postBooking(apiKey, bookingBody(service.id, at(2, "10:00"), { answers: { firstVisit: true } }));
    await validationError(one, "answers.firstvisit");
    const answers = { firstVisit: true, firstvisit: false };
    const res = await postBooking(apiKey, bookingBody(service.id, at(2, "10:00"), { answers }));
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await json(res)).answers).toEqual(answers);
  });

  // Names an empty object inherits ("constructor", "toString") must not count as answered.
  it.each(["constructor", "toString", "valueOf", "hasOwnProperty"])(
    "a required question keyed %s left out is a 422, and nothing is booked",
    async (key) => {
      const { apiKey, businessId } = await createAccount();
      const service = await createService(apiKey, { questions: [{ key, label: "Q", type: "text", required: true }] });
      await validationError(await postBooking(apiKey, bookingBody(service.id, at(2, "10:00"))), `answers.${key}`);
      const empty = await postBooking(apiKey, bookingBody(service.id, at(2, "10:00"), { answers: {} }));
      await validationError(empty, `answers.${key}`);
      expect(await d1Bookings(businessId)).toEqual([]);
    },
  );

  const badKeys: [string, string][] = [
    ["a leading digit", "1stVisit"],
    ["a leading _", "_visit"],
    ["a -", "first-visit"],
    ["a space", "first visit"],
    ["a letter outside A–Z", "größe"],
    ["41 characters", `a${"B".repeat(40)}`],
    ["no characters", ""],
  ];
  it.each(badKeys)("a key with %s is a 422 naming it, and nothing is stored", async (_, key) => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/services", {
      key: apiKey,
      body: {
        name: "Q",
        durationMinutes: 30,
        timezone: "UTC",
        weeklySchedule: {},
        questions: [{ key, label: "A", type: "text" }],
      },
    });
    const error = await validationError(res, "questions.0.key");
    expect(error.message).toBe("Use 1–40 letters, digits or _, starting with a letter.");
    expect((await totalOf(apiKey, "/services")) + (await totalOf(apiKey, "/services?active=false"))).toBe(0);
  });

  it("a 40-character key is accepted, and answers keyed badly are a 422 naming answers", async () => {
    const { apiKey } = await createAccount();
    const key = `a${"B".repeat(39)}`;
    const service = await createService(apiKey, { questions: [{ key, label: "A", type: "text" }] });
    expect(service.questions[0].key).toBe(key);
    const res = await postBooking(apiKey, bookingBody(service.id, at(2, "10:00"), { answers: { "first-visit": "x" } }));
    await validationError(res, "answers.first-visit");
  });
});

describe("error", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["a required question left out", { age: 3 }, "answers.allergies"],
    ["an unknown key", { allergies: "x", shoe_size: 42 }, "answers.shoe_size"],
    ["text that is blank", { allergies: "   " }, "answers.allergies"],
    ["text over 2,000 characters", { allergies: "x".repeat(2001) }, "answers.allergies"],
    ["a number as text", { allergies: "x", age: "41" }, "answers.age"],
    ["a boolean as a number", { allergies: "x", first_visit: 1 }, "answers.first_visit"],
    ["a choice not offered", { allergies: "x", length: "bald" }, "answers.length"],
    ["a choice of the wrong case", { allergies: "x", length: "Long" }, "answers.length"],
    ["an object as an answer", { allergies: { text: "x" } }, "answers.allergies"],
  ];
  it.each(cases)("%s is a 422 naming the key, and nothing is booked", async (_, answers, path) => {
    const s = await salonWithQuestions();
    await validationError(await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { answers })), path);
    expect(await d1Bookings(s.businessId)).toEqual([]);
  });

  it("more than 20 answers is a 422", async () => {
    const s = await salonWithQuestions();
    const answers = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`q${i}`, "x"]));
    await validationError(
      await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { answers })),
      "answers",
    );
  });

  const badQuestions: [string, unknown, string][] = [
    ["a choice question without choices", [{ key: "a", label: "A", type: "choice" }], "questions.0.choices"],
    ["choices on a text question", [{ key: "a", label: "A", type: "text", choices: ["x"] }], "questions.0.choices"],
    [
      "a key used twice",
      [
        { key: "a", label: "A", type: "text" },
        { key: "a", label: "B", type: "text" },
      ],
      "questions.1.key",
    ],
    ["an unknown type", [{ key: "a", label: "A", type: "date" }], "questions.0.type"],
    ["a choice listed twice", [{ key: "a", label: "A", type: "choice", choices: ["x", "x"] }], "questions.0.choices.1"],
    ["21 questions", Array.from({ length: 21 }, (_, i) => ({ key: `q${i}`, label: "Q", type: "text" })), "questions"],
  ];
  it.each(badQuestions)("a service with %s is a 422", async (_, questions, path) => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/services", {
      key: apiKey,
      body: { name: "Q", durationMinutes: 30, timezone: "UTC", weeklySchedule: {}, questions },
    });
    await validationError(res, path);
  });
});
