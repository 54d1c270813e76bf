/**
 * Which port the built-in sandbox tries first, so exported code and scripts find it at the same
 * address launch after launch: `--sandbox-port`, then WORKBENCH_SANDBOX_PORT, then the port set in
 * Connections, then the last launch's, then 4010. When that port is taken the sandbox listens on
 * another (startSandbox) and Connections says which.
 */
import { SandboxPortSchema, type SandboxPortSource } from '../../shared/contract/connections';
import { rememberedPort } from './state/port-file';

/** The port of a first launch. */
export const DEFAULT_SANDBOX_PORT = 4010;

export interface SandboxPortChoice {
  port: number;
  source: SandboxPortSource;
}

export interface SandboxPortInputs {
  /** From the command line (already checked). */
  cli?: number;
  /** WORKBENCH_SANDBOX_PORT as found in the environment. */
  env?: string;
  /** The Connections setting as stored (any JSON). */
  setting?: unknown;
  /** The sandbox's state folder, holding the last launch's port. */
  stateDir: string;
  log: (line: string) => void;
}

/** A usable port, or null (privileged and out-of-range ports are not chosen). */
export function validPort(value: unknown): number | null {
  const port = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  const parsed = SandboxPortSchema.safeParse(port);
  return parsed.success ? parsed.data : null;
}

/** The port to try first, and why it is that one. */
export function chooseSandboxPort(inputs: SandboxPortInputs): SandboxPortChoice {
  if (inputs.cli !== undefined) return { port: inputs.cli, source: 'cli' };
  if (inputs.env !== undefined && inputs.env.trim() !== '') {
    const port = validPort(inputs.env);
    if (port !== null) return { port, source: 'env' };
    inputs.log(`WORKBENCH_SANDBOX_PORT=${JSON.stringify(inputs.env)} is not a port from 1024 to 65535; ignored`);
  }
  const setting = validPort(inputs.setting);
  if (setting !== null) return { port: setting, source: 'setting' };
  const last = rememberedPort(inputs.stateDir);
  if (last > 0) return { port: last, source: 'last' };
  return { port: DEFAULT_SANDBOX_PORT, source: 'default' };
}
