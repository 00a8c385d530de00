/** 短信模板: smart templates (the user's), general templates (the platform's), the add/edit dialog. */
export { SmartTemplateList } from './SmartTemplateList';
export { GeneralTemplateList } from './GeneralTemplateList';
export { TemplateTabs } from './TemplateTabs';
export { TemplateFormDialog } from './TemplateFormDialog';
export { TemplateImportDialog } from './TemplateImportDialog';
