/** Images: generations and edits, their images kept in the gallery. */
import { imagesContract } from '../../../shared/families/images/contract';
import { ImagesService } from './images-service';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const imagesMain = {
  id: 'images',
  contract: 'images',
  create(deps: FamilyDeps) {
    const service = new ImagesService({ db: deps.db, blobs: deps.blobs, connections: deps.connections, gallery: deps.gallery, userFiles: deps.userFiles, models: deps.models });
    return { handlers: bindOps(imagesContract, service) };
  },
} as const satisfies MainFamily;
