/**
 * What `@peculiar/x509` and `reflect-metadata` resolve to in the Worker bundle (wrangler.toml
 * [alias]). `@simplewebauthn/server` uses them only to check an attestation's certificate chain;
 * passkeys here ask for no attestation (`none`), so no chain is ever checked, and the two (with the
 * dependency-injection library under them) would add about 20 KB gzip. An answer that carries a
 * certificate chain all the same fails to verify (a 422), as it should where none was asked for.
 */
class Unavailable {
  constructor() {
    throw new Error("Attestation certificate chains are not checked in this Worker: passkeys ask for none.");
  }
}

export class X509Certificate extends Unavailable {}
export class X509ChainBuilder extends Unavailable {}
export class X509Crl extends Unavailable {}
export class AuthorityKeyIdentifierExtension extends Unavailable {}
export class CRLDistributionPointsExtension extends Unavailable {}
export class SubjectKeyIdentifierExtension extends Unavailable {}
