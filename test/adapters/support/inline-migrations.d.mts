export type Dialect = "postgres" | "sqlite" | "hosted-store";
export declare const dialects: Dialect[];
export declare function sqlDirOf(dialect: Dialect): string;
export declare function modulePathOf(dialect: Dialect): string;
export declare const sqlDir: string;
export declare const modulePath: string;
export declare function readSqlFiles(dialect?: Dialect): { name: string; sql: string }[];
export declare function renderModule(files: { name: string; sql: string }[], dialect?: Dialect): string;
