import { randomBytes } from "node:crypto";
import { describe } from "vitest";
import { retrieverContract } from "../retriever.contract.ts";
import { openWeaviateIndex } from "./weaviate-index.ts";

/**
 * The retriever port's contract (the embedded index runs it too, plus its own
 * checks of Porter stems and document frequencies, which Weaviate does not
 * promise), against a real Weaviate — run when WEAVIATE_URL is set (docker
 * compose up weaviate), skipped otherwise: no Weaviate server can run where CI runs.
 */
const url = process.env.WEAVIATE_URL;

describe.skipIf(!url)(`Weaviate retriever${url ? "" : " (skipped: set WEAVIATE_URL to run the contract against a real Weaviate)"}`, () => {
  retrieverContract("Weaviate", async () => {
    const index = await openWeaviateIndex({
      url: url!,
      grpcUrl: process.env.WEAVIATE_GRPC_URL,
      apiKey: process.env.WEAVIATE_API_KEY,
      prefix: `DocentTest${randomBytes(4).toString("hex")}`,
    });
    return {
      retrieve: index.retrieve,
      writer: index.writer,
      readPage: index.readPage,
      cleanup: async () => {
        await index.drop();
        await index.close();
      },
    };
  });
});
