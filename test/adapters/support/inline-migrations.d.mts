export declare const sqlDir: string;
export declare const modulePath: string;
export declare function readSqlFiles(): { name: string; sql: string }[];
export declare function renderModule(files: { name: string; sql: string }[]): string;
