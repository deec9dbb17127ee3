import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';

/**
 * Signed JWT access tokens (RFC 9068 shape: `typ: at+jwt`, `aud` = the resource, `scope`,
 * `client_id`), made and checked with jose on WebCrypto so the engine stays web-standard. One
 * ES256 key per engine, made on first use; its public half is served as the JWKS.
 */

/** What an access token grants. */
interface AccessClaims {
  issuer: string;
  audience: string;
  clientId: string;
  scope: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
}

/** A verified access token's claims, or why it is not one. */
type Verified = { ok: true; claims: AccessClaims } | { ok: false; reason: string };

/** The engine's signer and verifier. */
export interface TokenKeys {
  sign(claims: AccessClaims, jti: string): Promise<string>;
  /** Check the signature and expiry at `nowMs` (the injected clock); the caller checks iss and aud. */
  verify(token: string, nowMs: number): Promise<Verified>;
  jwks(): Promise<{ keys: JWK[] }>;
}

const KID = 'loupe-mock-1';

/** Create the key holder; the key pair is generated lazily. */
export function createTokenKeys(): TokenKeys {
  let pair: ReturnType<typeof generateKeyPair> | undefined;
  const keys = () => {
    pair ??= generateKeyPair('ES256', { extractable: true });
    return pair;
  };
  return {
    async sign(c, jti) {
      const { privateKey } = await keys();
      return new SignJWT({ scope: c.scope, client_id: c.clientId })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: KID })
        .setIssuer(c.issuer)
        .setAudience(c.audience)
        .setSubject(c.clientId)
        .setIssuedAt(c.issuedAt)
        .setExpirationTime(c.expiresAt)
        .setJti(jti)
        .sign(privateKey);
    },
    async verify(token, nowMs) {
      const { publicKey } = await keys();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, publicKey, { typ: 'at+jwt', algorithms: ['ES256'], currentDate: new Date(nowMs) }));
      } catch (e) {
        const code = (e as { code?: string }).code;
        return { ok: false, reason: code === 'ERR_JWT_EXPIRED' ? 'the access token expired' : 'the access token is not one this server issued' };
      }
      const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
      const claims: AccessClaims = {
        issuer: String(payload.iss ?? ''),
        audience: String(aud ?? ''),
        clientId: String(payload.client_id ?? payload.sub ?? ''),
        scope: typeof payload.scope === 'string' ? payload.scope : '',
        issuedAt: payload.iat ?? 0,
        expiresAt: payload.exp ?? 0,
      };
      return { ok: true, claims };
    },
    async jwks() {
      const { publicKey } = await keys();
      return { keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: 'ES256', use: 'sig' }] };
    },
  };
}
