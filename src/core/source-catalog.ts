/** The source catalog port: knowledge-source metadata, wherever it is stored. */
export interface SourceInfo {
  id: string;
  name: string;
  description: string;
  baseUrl: string;
  origin: string;
  pages: number;
  chunks: number;
  createdAt: Date;
  updatedAt: Date;
}

export type NewSource = Pick<SourceInfo, "id" | "name" | "description" | "baseUrl" | "origin" | "pages" | "chunks">;

export interface SourceCatalog {
  list(): Promise<SourceInfo[]>;
  get(id: string): Promise<SourceInfo | null>;
  findByName(name: string): Promise<SourceInfo | null>;
  upsert(source: NewSource): Promise<SourceInfo>;
  remove(id: string): Promise<boolean>;
}
