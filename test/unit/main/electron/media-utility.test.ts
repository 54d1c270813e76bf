import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({ forks: [] as Array<{ entry: string; args: string[]; options: unknown; child: unknown }> }));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const { PassThrough: Pipe } = await import('node:stream');
  return {
    utilityProcess: {
      fork(entry: string, args: string[], options: unknown) {
        const child = Object.assign(new Emitter(), { pid: 99, stdout: new Pipe(), stderr: new Pipe(), postMessage: vi.fn(), kill: vi.fn(() => true) });
        electron.forks.push({ entry, args, options, child });
        return child;
      },
    },
  };
});

const { utilityLauncher } = await import('../../../../main/electron/media-utility');

type FakeChild = EventEmitter & { stdout: PassThrough; stderr: PassThrough; postMessage: ReturnType<typeof vi.fn>; kill: ReturnType<typeof vi.fn> };

describe('utilityLauncher', () => {
  it('forks the media entry as a utility process and adapts it to a MediaChild', async () => {
    const log = vi.fn();
    const media = utilityLauncher('/app/out/main/media.js', log)();
    const { entry, options, child } = electron.forks[0] as { entry: string; options: unknown; child: FakeChild };
    expect(entry).toBe('/app/out/main/media.js');
    expect(options).toMatchObject({ serviceName: 'Workbench media', stdio: 'pipe' });

    const port = { fake: 'port' };
    media.postMessage({ t: 'port', channelId: 'w-1' }, [port]);
    expect(child.postMessage).toHaveBeenCalledWith({ t: 'port', channelId: 'w-1' }, [port]);

    const got: unknown[] = [];
    media.onMessage((m) => got.push(m));
    child.emit('message', { t: 'ready', pid: 99 });
    expect(got).toEqual([{ t: 'ready', pid: 99 }]);

    const exits: unknown[] = [];
    media.onExit((code, signal) => exits.push([code, signal]));
    child.emit('exit', 70);
    expect(exits).toEqual([[70, null]]);

    child.stderr.write('ALSA lib pcm.c: Unknown PCM dmix\n');
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith('[media 99] ALSA lib pcm.c: Unknown PCM dmix'));
    media.kill();
    expect(child.kill).toHaveBeenCalled();
  });
});
