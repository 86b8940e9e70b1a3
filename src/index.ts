import { createApp } from "./http/app";

export default createApp();
