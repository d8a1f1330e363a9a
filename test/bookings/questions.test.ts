/**
 * Booking questions: a service asks, a booking answers (plain or from a hold), the answers are
 * checked against the service (422 naming `answers.<key>`, nothing stored) and shown on reads.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, validationError } from "../helpers";
import { hold } from "../support/fixtures";
import { at, bookingBody, d1Bookings, postBooking } from "./support";

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
    ["a key with capitals", [{ key: "Allergies", label: "A", type: "text" }], "questions.0.key"],
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
