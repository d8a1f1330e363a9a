/**
 * The signed-in office (everything past sign-in): every address needs a member's session (else
 * 303 to `/office/sign-in`), and what goes wrong is an office page. Cross-site form posts are
 * refused before this, by the office's own check (index.tsx).
 */
import { Hono } from "hono";
import { serveOfficeAsset } from "./assets";
import { bookingRoutes } from "./booking/routes";
import { customerRoutes } from "./customers/routes";
import { dayRoutes } from "./day/routes";
import { type DeskEnv, signedIn } from "./frame/desk";
import { deskError } from "./frame/errors";
import { newBookingRoutes } from "./new-booking/routes";
import { passkeyRoutes } from "./passkeys/routes";
import { setupRoutes } from "./setup/routes";

/** Everything past sign-in, mounted at `/office` by index.tsx. */
export const deskApp = new Hono<DeskEnv>();

deskApp.get("/_assets/:file", serveOfficeAsset);
for (const path of [
  "/",
  "/day",
  "/day/*",
  "/week/*",
  "/bookings/*",
  "/customers",
  "/customers/*",
  "/setup",
  "/setup/*",
])
  deskApp.use(path, signedIn);
// The passkeys page and its removal form; the ceremony's JSON at `/passkeys` (index.tsx) answers a 401 of its own.
deskApp.get("/passkeys", signedIn);
deskApp.post("/passkeys/remove", signedIn);
deskApp.onError(deskError);
deskApp.route("/", dayRoutes);
// The phone-in first: its `/bookings/new` is not a booking id.
deskApp.route("/", newBookingRoutes);
deskApp.route("/", bookingRoutes);
deskApp.route("/", customerRoutes);
deskApp.route("/", setupRoutes);
deskApp.route("/", passkeyRoutes);
