import { setProjectAnnotations } from '@storybook/react-vite';
import { configure } from 'storybook/test';
import * as previewAnnotations from './preview';

setProjectAnnotations([previewAnnotations]);

// play functions' findBy*/waitFor wait up to 5 s: a loaded two-core CI machine renders slowly
configure({ asyncUtilTimeout: 5000 });
