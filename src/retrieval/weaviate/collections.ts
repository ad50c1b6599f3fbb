import weaviate, { type WeaviateClient } from "weaviate-client";

/** The three collections behind one Weaviate-backed index, named by a prefix. */
export interface IndexCollections {
  chunk: string;
  page: string;
  source: string;
}

export const collectionNames = (prefix: string): IndexCollections => ({ chunk: `${prefix}Chunk`, page: `${prefix}Page`, source: `${prefix}Source` });

const text = (name: string, extra: object = {}) => ({ name, dataType: "text" as const, ...extra });
const keyword = (name: string) => text(name, { tokenization: "field" as const, indexSearchable: false, indexFilterable: true });
/** Stored, not indexed: the pages a passage links to (see stored-links.ts) and its section spans (stored-spans.ts). */
const LINKS = text("links", { indexSearchable: false, indexFilterable: false });
/** Stored, not indexed: a passage's place in its page, to read a page back in order. */
const POSITION = { name: "position", dataType: "int" as const, indexFilterable: false, indexRangeFilters: false };
const SPANS = text("spans", { indexSearchable: false, indexFilterable: false });

/**
 * Creates the collections when missing: chunks (searchable title, section,
 * text and identifier parts; filterable source, generation and URL; stored links and
 * position in the page), pages
 * (URL and content hash per generation), and sources (the live generation).
 */
export async function ensureCollections(client: WeaviateClient, names: IndexCollections): Promise<void> {
  if (!(await client.collections.exists(names.chunk))) {
    await client.collections.create({
      name: names.chunk,
      vectorizers: weaviate.configure.vectorizer.none(),
      properties: [
        keyword("sourceId"),
        keyword("generation"),
        keyword("url"),
        keyword("anchor"),
        text("title"),
        text("section"),
        text("text"),
        text("idents"),
        LINKS,
        POSITION,
        SPANS,
      ],
    });
  } else {
    // Collections made before passages kept their links, positions or spans gain the property (empty until a source's next sync).
    const chunk = client.collections.use(names.chunk);
    const { properties } = await chunk.config.get();
    for (const property of [LINKS, POSITION, SPANS]) if (!properties.some((p) => p.name === property.name)) await chunk.config.addProperty(property);
  }
  if (!(await client.collections.exists(names.page))) {
    await client.collections.create({ name: names.page, properties: [keyword("sourceId"), keyword("generation"), keyword("url"), keyword("hash")] });
  }
  if (!(await client.collections.exists(names.source))) {
    await client.collections.create({ name: names.source, properties: [keyword("sourceId"), keyword("generation")] });
  }
}
