/**
 * The sandbox's own `/media/…` URLs read in-process when a request names one as an input (an
 * image it made, edited again or animated; a video it made, edited or extended): the images
 * store's and the video service's, so an expired one says so instead of being fetched.
 */
import type { SandboxEnv } from '../env';
import type { OwnMediaLookup } from '../media/input';

export function ownMediaLookup(env: SandboxEnv): (pathname: string) => OwnMediaLookup {
  return (pathname) => {
    if (pathname.startsWith('/media/videos/')) return env.videos.ownMedia(pathname);
    const found = env.media.get(pathname, env.clock.now());
    if (found.state === 'found') return { state: 'found', bytes: found.entry.bytes, mime: found.entry.mime };
    return { state: found.state === 'unknown' ? 'unknown' : 'expired' };
  };
}
