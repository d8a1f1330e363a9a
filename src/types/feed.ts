/** A person's calendar feed: the shape of its secret token, shared by the feed's records and its schema. */

/** A feed token: `cal_` and 43 base64url characters (32 random bytes). */
export const feedTokenPattern = /^cal_[A-Za-z0-9_-]{43}$/;
