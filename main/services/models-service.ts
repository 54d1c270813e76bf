/**
 * The model catalogue of a connection, merged from the four listings and cached for a few
 * minutes (the chat form and the Models view both ask for it). The cache is keyed by the
 * connection's client, which is replaced whenever the profile's URL or key changes, so an edited
 * profile never serves the old service's catalogue. A listing that cannot be used is left out
 * with a note (models-listings.ts); only a failed basic listing with nothing else to show fails.
 */
import type { ApiClient } from '../api/client';
import { toWorkbenchError } from '../api/errors';
import {
  listImageGenerationModels,
  listLanguageModels,
  listModels,
  listVideoGenerationModels,
} from '../api/models';
import type { Catalogue, CatalogueEntry } from '../../shared/families/models/contract';
import type { ImageGenerationModel, LanguageModel, Model, VideoGenerationModel } from '../../shared/wire/models';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { ConnectionsService } from './connections-service';
import { mergeCatalogue } from './models-catalogue';
import { readListing } from './models-listings';

const CACHE_MS = 5 * 60_000;

export class ModelsService {
  private readonly cache = new WeakMap<ApiClient, Catalogue>();

  constructor(
    private readonly connections: ConnectionsService,
    private readonly now: () => number = Date.now,
  ) {}

  async catalogue({ connectionId, refresh = false }: { connectionId?: string; refresh?: boolean } = {}): Promise<Catalogue> {
    const { profile, client, isSandbox } = this.connections.resolve(connectionId);
    const cached = this.cache.get(client);
    if (!refresh && cached && this.now() - cached.fetchedAt < CACHE_MS) return cached;

    const [models, language, image, video] = await Promise.all([
      listModels(client),
      listLanguageModels(client),
      listImageGenerationModels(client),
      listVideoGenerationModels(client),
    ]);
    const read = {
      models: readListing('models', models),
      language: readListing('language', language),
      image: readListing('image', image),
      video: readListing('video', video),
    };
    // Nothing to show and the basic listing failed: that failure is the answer (a wrong key, a dead host).
    if (!models.ok && Object.values(read).every((r) => r.entries.length === 0)) throw new WorkbenchFailure(toWorkbenchError(models.error));
    const notes = Object.values(read).flatMap((r) => (r.note ? [r.note] : []));
    const catalogue: Catalogue = {
      connectionId: profile.id,
      isSandbox,
      fetchedAt: this.now(),
      entries: mergeCatalogue({
        models: read.models.entries as Model[],
        language: read.language.entries as LanguageModel[],
        image: read.image.entries as ImageGenerationModel[],
        video: read.video.entries as VideoGenerationModel[],
      }),
      ...(notes.length > 0 ? { notes } : {}),
    };
    this.cache.set(client, catalogue);
    return catalogue;
  }

  /** The cached entry for a model id or alias, if this client's catalogue was fetched. */
  cachedEntry(client: ApiClient, model: string): CatalogueEntry | undefined {
    return this.cache.get(client)?.entries.find((e) => e.id === model || e.aliases.includes(model));
  }
}
