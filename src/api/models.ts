// Public API entry: the model catalog, the user models file, and one test request to a model (`zotbox models`, issue 27). Re-exports only.
export { API_KEY_VARIABLES, BUILT_IN_MODELS, hasModelCredentials, readUserModels, userModelsFile, type CatalogModel, type ProviderName } from '../host/models/model-catalog.js';
export { addUserModel, baseUrlProblem, listCatalog, testModel, type ModelTestReport, type NewModelEntry } from '../host/models/manage-models.js';
