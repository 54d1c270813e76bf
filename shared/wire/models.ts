/** Wire shapes of the four model listings (spec/service.md "Model", "Language model", ...). */

export interface Model {
  id: string;
  aliases: string[];
  created: number;
  object: 'model';
  owned_by: string;
  context_length: number | null;
  prompt_text_token_price: number | null;
  cached_prompt_text_token_price: number | null;
  completion_text_token_price: number | null;
  prompt_image_token_price: number | null;
  image_price: number | null;
  prompt_text_token_price_long_context: number | null;
  cached_prompt_text_token_price_long_context: number | null;
  completion_text_token_price_long_context: number | null;
  long_context_threshold: number | null;
}

export interface ModelList {
  data: Model[];
  object: 'list';
}

export interface LanguageModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  version: string;
  aliases: string[];
  fingerprint: string;
  input_modalities: string[];
  output_modalities: string[];
  prompt_text_token_price: number;
  cached_prompt_text_token_price: number;
  completion_text_token_price: number;
  prompt_image_token_price: number;
  search_price: number;
  prompt_text_token_price_long_context: number;
  cached_prompt_text_token_price_long_context: number;
  completion_text_token_price_long_context: number;
  long_context_threshold: number;
}

export interface ImageGenerationModel {
  id: string;
  aliases: string[];
  created: number;
  fingerprint: string;
  image_price: number;
  input_modalities: string[];
  output_modalities: string[];
  max_prompt_length: number;
  object: 'model';
  owned_by: string;
  version: string;
  prompt_text_token_price?: number;
  prompt_image_token_price?: number;
  generated_image_token_price?: number;
}

export interface VideoGenerationModel {
  id: string;
  aliases: string[];
  created: number;
  fingerprint: string;
  input_modalities: string[];
  output_modalities: string[];
  object: 'model';
  owned_by: string;
  version: string;
}

export interface ModelsWrapper<T> {
  models: T[];
}
