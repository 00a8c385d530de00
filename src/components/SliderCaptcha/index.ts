export {
  SliderCaptcha,
  SLIDER_PASSED,
  SLIDER_PROMPT,
  type SliderCaptchaHandle,
  type SliderCaptchaProps,
  type SliderResult,
} from './SliderCaptcha';
