import { notFound } from "./errors.ts";
import type { ModelRegistry } from "./model-registry.ts";
import {
  type ListResource,
  listOf,
  type ModelResource,
  modelResource,
  type PageResource,
  pageResource,
  type SourceResource,
  sourceResource,
} from "./resources.ts";
import type { PageReader } from "./retriever.ts";
import type { SourceCatalog } from "./source-catalog.ts";
import { inScope, type SourceScope } from "./source-scope.ts";

/** Reading sources, their pages and models as a caller may see them: the same objects and errors for every interface. */
export function createResourceReader({ catalog, models, readPage }: { catalog: SourceCatalog; models: ModelRegistry; readPage: PageReader }) {
  return {
    async listSources(scope: SourceScope): Promise<ListResource<SourceResource>> {
      return listOf(inScope(await catalog.list(), scope).map(sourceResource));
    },
    /** A source outside the caller's scope answers exactly like an unknown id. */
    async getSource(id: string, scope: SourceScope): Promise<SourceResource> {
      // Ids are stored in lower case; `sources` in a request is read in any case, and so is this.
      const source = await catalog.get(id.toLowerCase());
      if (!source || inScope([source], scope).length === 0) throw notFound(`No knowledge source with id '${id}'.`, "id", "source_not_found");
      return sourceResource(source);
    },
    /** A stored page by URL (a `#fragment` is ignored); a page of a source outside the scope answers exactly like an unknown URL. */
    async getPage(url: string, scope: SourceScope): Promise<PageResource> {
      const sources = inScope(await catalog.list(), scope);
      const page =
        sources.length > 0
          ? await readPage(
              url.replace(/#.*$/, ""),
              sources.map((s) => s.id),
            )
          : null;
      const source = page && sources.find((s) => s.id === page.sourceId);
      if (!page || !source)
        throw notFound(
          `No stored page at '${url}' in the knowledge sources (page URLs are those that search results and references give).`,
          "url",
          "page_not_found",
        );
      return pageResource(page, source);
    },
    listModels(): ListResource<ModelResource> {
      return listOf(models.list().map(modelResource));
    },
    getModel(id: string): ModelResource {
      const model = models.list().find((m) => m.id === id);
      if (!model) throw notFound(`The model '${id}' does not exist.`, "model", "model_not_found");
      return modelResource(model);
    },
  };
}

export type ResourceReader = ReturnType<typeof createResourceReader>;
