import { SolidAuth } from "@gatehouse/runtime/solid-start";
import { authConfig } from "~/auth";

export const { GET, POST } = SolidAuth(authConfig);
