import { z } from 'zod';
import { AsMetadataSchema } from './discovery';

/**
 * What the client keeps between runs when the user asks it to (`--store-tokens FILE`): the
 * tokens with everything a refresh needs (the authorization server's metadata, the client's
 * registration at that server, the resource), tied to the MCP server they were issued for.
 * Where it is kept is the caller's business (a 0600 file for the CLI); by default nothing is.
 */

const StoredAuthSchema = z.object({
  version: z.literal(1),
  /** The MCP endpoint the tokens were obtained for; another server never gets them. */
  server: z.string(),
  issuer: z.string(),
  resource: z.string(),
  authorizationServer: AsMetadataSchema,
  client: z.object({
    issuer: z.string(),
    clientId: z.string().min(1),
    clientSecret: z.string().optional(),
    method: z.enum(['client_secret_basic', 'client_secret_post', 'none']),
    via: z.enum(['pre-registered', 'cimd', 'dcr']),
  }),
  tokens: z.object({
    accessToken: z.string().min(1),
    refreshToken: z.string().optional(),
    expiresAt: z.number().optional(),
    scope: z.string().optional(),
  }),
  /** The scopes last asked for (a later step-up asks for their union with the challenge's). */
  scopes: z.array(z.string()),
});
export type StoredAuth = z.infer<typeof StoredAuthSchema>;

/** Where the authorization state is loaded from and saved to. */
export interface TokenStore {
  /** The saved state (any shape: it is checked), or undefined when there is none. */
  load(): Promise<unknown>;
  save(state: StoredAuth): Promise<void>;
}

/** The stored state if it is well-formed and was saved for `server`. */
export function storedFor(value: unknown, server: string): StoredAuth | undefined {
  const parsed = StoredAuthSchema.safeParse(value);
  return parsed.success && parsed.data.server === server ? parsed.data : undefined;
}
