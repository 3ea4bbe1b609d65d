// Shared by remoteAgents.ts (in the extension bundle) and agentSecrets.ts (its dialogs, loaded on
// first use): where secrets are kept and what a secret's name may be.

/** Where a secret named NAME is kept in SecretStorage: SECRET_PREFIX + NAME. */
export const SECRET_PREFIX = 'acp.agentSecret.';
/** A secret's name, as headers name it: `${secret:NAME}`. */
export const SECRET_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** What the confirmation before the first connection to a host shows. */
export interface HostConfirmation {
  agentName: string;
  url: string;
  /** `wss://host:port`: what the answer is remembered for. */
  host: string;
  headerNames: string[];
  secrets: string[];
}
