/** The fake video service of test/integration/videos in its own process (its memory is not main's): prints its URL. */
import { startFakeVideoService } from '../integration/videos/fake-video-service';

const pendingPolls = Number(process.argv[2] ?? 20);
void startFakeVideoService({ pendingPolls }).then((service) => process.stdout.write(`${service.url}\n`));
