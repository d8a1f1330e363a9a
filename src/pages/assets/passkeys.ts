/**
 * The office's passkey script (served by assets.ts under a content hash): runs the WebAuthn
 * ceremony of a `form[data-passkey]` — asks the server for options, hands them to the browser
 * (`PublicKeyCredential.parse…OptionsFromJSON`), posts the credential's `toJSON()` back and follows
 * the answer's `location`. The form stays hidden where the browser cannot do this, so the page's
 * other ways (the e-mail link) remain. What it says comes from the status element's `data-busy`,
 * `data-done`, `data-closed` and `data-failed` when the page gives them (in the member's
 * language), else in English. Hand-written rather than a bundled library: about 50 lines.
 */
export const passkeyScript = `(function () {
  "use strict";
  var PKC = window.PublicKeyCredential;
  var form = document.querySelector("form[data-passkey]");
  if (!form || !PKC || !PKC.parseCreationOptionsFromJSON || !PKC.parseRequestOptionsFromJSON) return;
  var status = document.querySelector("[data-passkey-status]");
  var adding = form.getAttribute("data-passkey") === "add";
  var button = form.querySelector("button");
  form.hidden = false;

  function say(text) { if (status) status.textContent = text; }
  function word(name, english) { return (status && status.getAttribute("data-" + name)) || english; }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body || {})
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (answer) {
        if (!res.ok) throw new Error(answer.detail || "The server refused (" + res.status + ").");
        return answer;
      });
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    button.disabled = true;
    say(word("busy", adding ? "Follow your browser's steps to create the passkey…" : "Choose your passkey…"));
    post(form.getAttribute("data-options")).then(function (options) {
      return adding
        ? navigator.credentials.create({ publicKey: PKC.parseCreationOptionsFromJSON(options) })
        : navigator.credentials.get({ publicKey: PKC.parseRequestOptionsFromJSON(options) });
    }).then(function (credential) {
      var body = { credential: credential.toJSON() };
      if (adding) body.name = form.elements.name.value;
      return post(form.getAttribute("data-finish"), body);
    }).then(function (done) {
      say(word("done", adding ? "Passkey added." : "Signed in."));
      location.assign(done.location);
    }).catch(function (error) {
      button.disabled = false;
      say(error && error.name === "NotAllowedError"
        ? word("closed", "No passkey was used: the browser's dialog was closed or timed out.")
        : (error && error.message) || word("failed", "That did not work."));
    });
  });
})();
`;
