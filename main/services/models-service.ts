/**
 * The model catalogue of a connection, merged from the four listings and cached for a few
 * minutes (the chat form and the Models view both ask for it). The cache is keyed by the
 * connection's client, which is replaced whenever the profile's URL or key changes, so an edited
 * profile never serves the old service's catalogue.
 */
import type { ApiClient } from '../api/client';
import { toWorkbenchError } from '../api/errors';
import {
  listImageGenerationModels,
  listLanguageModels,
  listModels,
  listVideoGenerationModels,
} from '../api/models';
import type { Catalogue, CatalogueEntry } from '../../shared/contract/models';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { ConnectionsService } from './connections-service';
import { mergeCatalogue } from './models-catalogue';

const CACHE_MS = 5 * 60_000;

export class ModelsService {
  private readonly cache = new WeakMap<ApiClient, Catalogue>();

  constructor(
    private readonly connections: ConnectionsService,
    private readonly now: () => number = Date.now,
  ) {}

  async catalogue(connectionId?: string, refresh = false): Promise<Catalogue> {
    const { profile, client, isSandbox } = this.connections.resolve(connectionId);
    const cached = this.cache.get(client);
    if (!refresh && cached && this.now() - cached.fetchedAt < CACHE_MS) return cached;

    const [models, language, image, video] = await Promise.all([
      listModels(client),
      listLanguageModels(client),
      listImageGenerationModels(client),
      listVideoGenerationModels(client),
    ]);
    // The basic listing is required; a service without one of the typed listings still gives a catalogue.
    if (!models.ok) throw new WorkbenchFailure(toWorkbenchError(models.error));
    const catalogue: Catalogue = {
      connectionId: profile.id,
      isSandbox,
      fetchedAt: this.now(),
      entries: mergeCatalogue({
        models: models.value.data,
        language: language.ok ? language.value.models : [],
        image: image.ok ? image.value.models : [],
        video: video.ok ? video.value.models : [],
      }),
    };
    this.cache.set(client, catalogue);
    return catalogue;
  }

  /** The cached entry for a model id or alias, if this client's catalogue was fetched. */
  cachedEntry(client: ApiClient, model: string): CatalogueEntry | undefined {
    return this.cache.get(client)?.entries.find((e) => e.id === model || e.aliases.includes(model));
  }
}
