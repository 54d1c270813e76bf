// Types of scripts/check-layers.mjs, for its tests.
export interface LayerViolation {
  /** The importing file, relative to the checked root. */
  from: string;
  /** What it imported, as written. */
  to: string;
  /** The rule's name in .dependency-cruiser.cjs. */
  rule: string;
  /** The rule in words. */
  comment: string;
}
export function checkLayers(root: string, configFile?: string): Promise<LayerViolation[]>;
