// Home page: only the language needs setting up.
import { initI18n } from './i18n.js';

initI18n();
